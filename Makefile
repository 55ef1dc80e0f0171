# Quicksilver. `make run` and `make test` do all the set-up a fresh clone on a fresh machine needs.
SWIFT   ?= swift
DEMO    := Resources/demo.jsonl
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# System packages: headers to build, and the X server + input driver the end-to-end tests use.
# The text stack's headers (fontconfig, FreeType, HarfBuzz: the Text module) are build packages;
# FONT_DEBS is what it draws with: DejaVu Sans, the UI's font, and fontconfig's tools, whose
# fc-cache keeps the font cache current as fonts come and go.
BUILD_DEBS := libx11-dev libxext-dev libxi-dev libxpresent-dev libpng-dev libdeflate-dev libzip-dev pkg-config libdbus-1-dev \
	libfontconfig-dev libfreetype-dev libharfbuzz-dev libmypaint-dev patchelf
FONT_DEBS  := fonts-dejavu-core fontconfig
# fonts-droid-fallback: a small CJK font, for TextTests' fallback case. mypaint-brushes: MyPaint's
# 196 stock brushes (2.0), which BrushesTests load and paint. The XDG desktop portal with its GTK
# backend on a private session bus (dbus-daemon; gdbus from libglib2.0-bin): the desktop's
# file chooser the window asks (DesktopChooserTests).
TEST_DEBS  := xvfb xdotool xclip python3 ffmpeg fonts-droid-fallback mypaint-brushes \
	dbus-daemon libglib2.0-bin xdg-desktop-portal xdg-desktop-portal-gtk
# What `make test-install` checks an installed tree with (Tests/Install/check.py).
INSTALL_TEST_DEBS := desktop-file-utils appstream shared-mime-info libglib2.0-bin groff-base man-db zsh fish x11-utils
# `make icons` (redraws the committed PNGs from packaging/quicksilver.svg).
ICON_DEBS  := librsvg2-bin
# What `make bench` measures against: cairo, drawing the same strokes (Tests/Bench/files.py);
# libmypaint's slow tracking, steadying the same samples as the stabilizer (Tests/Bench/mypaint-track.c);
# simdjson, parsing the same journal (Tests/Bench/simdjson_parse.cpp); cairo again, drawing that
# journal's strokes (Tests/Bench/cairo_play.c).
BENCH_DEBS := gcc g++ libcairo2-dev libmypaint-dev libsimdjson-dev
# What `make interop` opens Quicksilver's OpenRaster files in, and has save theirs.
INTEROP_DEBS := mypaint krita gimp xvfb xauth

SOAK_MINUTES ?= 30
CHAOS_KILLS  ?= 1000
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= replay replay-fast-path png x11-events ora

.PHONY: run test bench build release installed deps test-deps bench-deps demo clean fuzz soak chaos install uninstall stage icons test-install install-test-deps refresh-caches bench-timelapse interop dab-goldens brush-goldens brush-table

run: release
	@if [ -n "$$DISPLAY" ] && .build/release/quicksilver --help >/dev/null 2>&1 && command -v xdpyinfo >/dev/null && xdpyinfo >/dev/null 2>&1; then \
		.build/release/quicksilver window; \
	else \
		echo "no X display: rendering the demo replay instead"; \
		$(MAKE) --no-print-directory demo; \
	fi

demo: release
	.build/release/quicksilver render $(DEMO) -o demo.png
	@echo "wrote $$(pwd)/demo.png"

# Unit, golden, CLI and window tests (the fuzz targets' checks over their seeds too), then a
# 30-second soak that checks only what cannot depend on the machine's speed (no crash, memory, the
# restored journal).
test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) --no-print-directory release
	python3 Tests/Soak/soak.py .build/release/quicksilver 0.5
	$(MAKE) --no-print-directory test-install

# libFuzzer under AddressSanitizer, FUZZ_SECONDS for each of FUZZ_TARGETS (Sources/Fuzzing), one after
# another. Each starts from its committed seeds (Tests/Fixtures/fuzz/TARGET, only read) and what earlier
# runs kept (.build-fuzz/corpus/TARGET, where new inputs go); prints the coverage reached. A finding
# fails, with its input in .build-fuzz/findings/TARGET and libFuzzer's log in .build-fuzz/TARGET.log.
# --sanitize=fuzzer makes SwiftPM compile the fuzz-* executables without a main and link libFuzzer's;
# -Xswiftc repeats it with address because the compiler keeps only the last -sanitize flag it is given.
# Swift's backtracer is off: its memory reader trips AddressSanitizer, and libFuzzer reports crashes.
FUZZ_BUILD := $(SWIFT) build -c release --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
fuzz: deps
	@for t in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product fuzz-$$t || exit 1; done
	@failed=""; for t in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$t .build-fuzz/findings/$$t; \
		dict=""; [ -f Tests/Fixtures/fuzz/$$t.dict ] && dict=-dict=Tests/Fixtures/fuzz/$$t.dict; \
		echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
		if SWIFT_BACKTRACE=enable=no .build-fuzz/release/fuzz-$$t .build-fuzz/corpus/$$t Tests/Fixtures/fuzz/$$t $$dict \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 -artifact_prefix=.build-fuzz/findings/$$t/ \
			> .build-fuzz/$$t.log 2>&1; then \
			grep -E '^#[0-9]+[[:space:]]+DONE' .build-fuzz/$$t.log | sed 's/^/  /'; \
			grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' .build-fuzz/$$t.log | sed 's/^/  /'; \
		else \
			failed="$$failed $$t"; tail -n 40 .build-fuzz/$$t.log; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in$$failed (inputs in .build-fuzz/findings)"; exit 1; fi

# The open window under synthetic 1 kHz input for SOAK_MINUTES (default 30), with the frame-rate
# and missed-deadline gates (the README's figures).
soak: release test-deps
	python3 Tests/Soak/soak.py .build/release/quicksilver $(SOAK_MINUTES) --speed-gates

# The chaos run (Tests/Chaos/chaos.py): the release window on a private Xvfb, driven through XTest
# (strokes, Ctrl+S, Ctrl+Shift+S, Ctrl+V of an xclip picture, new layers; some drawings open a big
# picture; a tiny --journal-compact-bytes makes compactions often), killed with SIGKILL at
# CHAOS_KILLS random moments (CHAOS_SEED repeats a run's choices). After each kill the window is
# started again and recovers; every stroke released more than 50 ms before a kill must be in the
# journal and in `render` of it, and the restored window must equal that render byte for byte.
# Prints the tally (docs/journal.md, "The chaos run"); fails on any loss. Not part of `make test`:
# 1.7 to 2.7 s a kill on a 2-core machine shared with builds: the default 1000 kills take 30 to 45 minutes.
chaos: release test-deps
	python3 Tests/Chaos/chaos.py .build/release/quicksilver --kills $(CHAOS_KILLS)

# The benchmarks: quicksilver-bench, a program of its own (Sources/quicksilver-bench, built by
# `release`; `make install` does not install it), with the present and clipboard cases on $$DISPLAY
# when it is set, the stabilizer table beside libmypaint's slow tracking (.build/bench/mypaint-track) and
# brushes.libmypaint, `quicksilver render` of MyPaint brushes against libmypaint's program (mypaint-render);
# a case whose work fails is named on stderr and stops make once the rest have run. Then event →
# pixels on screen measured from a second X client on a private Xvfb (Tests/Bench/latency.py; again
# with classic/coarse_bulk_1, the stock brush whose dabs cost most),
# then whole-process `render` against cairo (Tests/Bench/files.py). parse.300k is compared with C++
# simdjson's NDJSON parser on the same journal (Tests/Bench/simdjson_parse.cpp, built here), play.300k
# with cairo drawing its strokes (Tests/Bench/cairo_play.c).
SIMDJSON_PARSE := .build/bench/simdjson_parse
CAIRO_PLAY     := .build/bench/cairo_play
bench: release installed test-deps bench-deps .build/bench/mypaint-track $(MYPAINT_RENDER) $(SIMDJSON_PARSE) $(CAIRO_PLAY)
	.build/release/quicksilver-bench --mypaint .build/bench/mypaint-track --mypaint-render $(MYPAINT_RENDER) \
		--simdjson $(SIMDJSON_PARSE) --cairo $(CAIRO_PLAY) --quicksilver $(INSTALL_BIN)
	python3 Tests/Bench/latency.py .build/release/quicksilver
	python3 Tests/Bench/latency.py .build/release/quicksilver 200 0 classic/coarse_bulk_1
	python3 Tests/Bench/files.py .build/release/quicksilver

.build/bench/mypaint-track: Tests/Bench/mypaint-track.c | bench-deps
	@mkdir -p .build/bench
	gcc -O2 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs libmypaint) -lm

# libmypaint painting a recording with a brush (or single dabs): the peer Quicksilver's Brushes
# module is compared with, for fidelity and speed (docs/brushes.md).
MYPAINT_RENDER := .build/bench/mypaint-render
$(MYPAINT_RENDER): Tests/Bench/mypaint-render.c | bench-deps
	@mkdir -p $(dir $@)
	gcc -O2 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs libmypaint libpng) -lm

# Redraws the dab kernel's golden (Tests/Fixtures/dabs/dabs.png) with libmypaint's own surface.
dab-goldens: $(MYPAINT_RENDER)
	$(MYPAINT_RENDER) --dabs Tests/Fixtures/dabs/dabs.txt Tests/Fixtures/dabs/dabs.png

# Redraws the brush goldens (Tests/Fixtures/brushes, its README says how they are painted): the
# brushes BrushFidelityTests checks, painted by libmypaint.
STOCK_BRUSHES := /usr/share/mypaint-data/2.0/brushes
GOLDEN_BRUSHES := classic/calligraphy classic/charcoal deevad/4H_pencil classic/smudge classic/blur classic/ink_eraser \
	Dieterle/Pencil-_Left_Handed Dieterle/HalfTone\#1 Dieterle/Fountain_SF\#1 Dieterle/Posterizer kaerhon_v1/Smear_sm experimental/1pixel
brush-goldens: $(MYPAINT_RENDER) test-deps
	@for b in $(GOLDEN_BRUSHES); do \
		echo "$$b"; \
		$(MYPAINT_RENDER) "$(STOCK_BRUSHES)/$$b.myb" '#3060c0' Tests/Fixtures/brushes/painting10sec.dat \
			"Tests/Fixtures/brushes/$$(echo $$b | tr '/#' '_-').png" --size 768x640 \
			--under $(STOCK_BRUSHES)/classic/marker_fat.myb '#e0a030' 37 23 || exit 1; \
	done

# docs/brushes.md's table (not part of `make test`: it takes a quarter of an hour): every stock brush
# painting libmypaint's benchmark recording, by libmypaint's program and by `quicksilver render` of it
# (the program `make install` installs) as a replay, PSNR and whole-process time ratio each (Tests/Tools/brush_table.py). The rows are kept
# in .build/bench/brush-table.tsv, so an interrupted run goes on where it stopped: delete it to measure
# afresh. BRUSH_EVENTS: the 30-second recording where it is at hand, else the 10-second fixture.
BRUSH_EVENTS ?= $(firstword $(wildcard ../shared/corpus/painting30sec.dat) Tests/Fixtures/brushes/painting10sec.dat)
brush-table: release installed test-deps $(MYPAINT_RENDER)
	python3 Tests/Tools/brush_table.py --mypaint $(MYPAINT_RENDER) --brush-render .build/release/brush-render \
		--quicksilver $(INSTALL_BIN) --events $(BRUSH_EVENTS) --brushes $(STOCK_BRUSHES) \
		--markdown docs/brushes.md .build/bench/brush-table.tsv

$(SIMDJSON_PARSE): Tests/Bench/simdjson_parse.cpp | bench-deps
	@mkdir -p $(dir $@)
	g++ -O3 -std=c++17 -o $@ $< $$(pkg-config --cflags --libs simdjson)

$(CAIRO_PLAY): Tests/Bench/cairo_play.c | bench-deps
	@mkdir -p $(dir $@)
	gcc -O2 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs cairo)

# The timelapse figure: a 300,000-sample journal at 1080p, 30 s at 30 fps, against ffmpeg's own
# encoding of the same frames (Tests/Bench/timelapse.py).
bench-timelapse: release test-deps
	python3 Tests/Bench/timelapse.py .build/release/quicksilver

# OpenRaster both ways with MyPaint 2.0, Krita 5.1 and GIMP 2.10 (Tests/Tools/ora_interop.py): each opens
# Quicksilver's documents and its flattened picture is compared with Quicksilver's, then saves one of its
# own that Quicksilver opens. Not part of `make test`: it installs the three programs and takes minutes.
interop: build test-deps
	$(call install-missing,$(INTEROP_DEBS))
	python3 Tests/Tools/ora_interop.py --quicksilver .build/debug/quicksilver

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Installs whatever of a list of packages is missing, once (apt-get update only when something is).
define install-missing
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
endef

deps:
	$(call install-missing,$(BUILD_DEBS) $(FONT_DEBS))

test-deps:
	$(call install-missing,$(TEST_DEBS))

bench-deps:
	$(call install-missing,$(BENCH_DEBS))

# Installing, the freedesktop way: `make install` (PREFIX=/usr/local), `make install PREFIX=~/.local`
# for one user, DESTDIR=… to stage a package. The man pages and the shell completions are generated
# from the command line's own definition by swift-argument-parser (its generate-manual plugin and
# the binary's --generate-completion-script) into $(STAGE), never written by hand. The plugin writes
# a folder of pages per program the package builds (quicksilver-bench's too): only quicksilver's is
# staged, and the folders are emptied first so that no page of a command since removed is left there.
PREFIX  ?= /usr/local
DESTDIR ?=
# PREFIX=~/.local reaches make unexpanded from shells that expand no ~ after "=" (zsh).
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
STAGE   := .build/install-stage
# Where the generate-manual plugin writes: a folder per program.
MAN_OUTPUTS := .build/plugins/GenerateManual/outputs
ICON_SIZES := 16 22 24 32 48 64 128 256
# The icon sizes the window carries itself (_NET_WM_ICON), embedded in the binary by `make icons`.
WINDOW_ICON_SIZES := 16 32 48 64
METAINFO := io.github.quicksilver_paint.quicksilver.metainfo.xml
# The man pages generate-manual makes, one per command: `make install` checks the staged ones are
# these, and `make uninstall` without a manifest (an install by an older version) removes these by name.
MAN_PAGES := quicksilver quicksilver.window quicksilver.sessions quicksilver.render quicksilver.timelapse quicksilver.help
# The pages' date: the last commit's, so that the same source gives the same pages.
MAN_DATE := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

# The installed binary carries the Swift runtime (--static-swift-stdlib), so it runs without the
# toolchain (and starts in two thirds of the time: docs/performance.md, "Starting"); built in a
# folder of its own, as those flags would rebuild .build/release whole. Nor can .build/release be the
# static build: the generate-manual plugin builds the package for release there without the
# runtime, and SwiftPM then keeps that plan for later --static-swift-stdlib builds of that folder,
# linking them dynamic (tried: the installed binary needed the toolchain).
INSTALL_BUILD := .build-install
INSTALL_BIN   := $(INSTALL_BUILD)/quicksilver

# It is linked by the toolchain's lld with its relative relocations packed (DT_RELR, which glibc
# reads since 2.36): carrying the runtime, the program has some 80,000 of them, which the dynamic
# loader applied one by one from a 1.9 MB table at every start (a millisecond of an empty
# `render`); packed, the table is 15 KB and the program stays position-independent.
INSTALL_LINK := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs

# The libraries the program opens at their first call (CLazy.h) but SwiftPM still names, as it
# passes their pkg-config's -l flags (and places -Xlinker --as-needed after them): fontconfig,
# FreeType, HarfBuzz and libdbus, with what they bring, were 2 ms of every start. The installed
# program is the build's with them left out (patchelf), its stand-ins in their place; binding
# every symbol at once (LD_BIND_NOW) then proves that nothing else needed them.
LAZY_NEEDED := libfontconfig.so.1 libfreetype.so.6 libharfbuzz.so.0 libdbus-1.so.3

# The program `make install` installs; `make bench` and `make brush-table` time it against
# libmypaint's, as the program a painter runs.
installed: deps
	$(SWIFT) build -c release --static-swift-stdlib $(INSTALL_LINK) --product quicksilver --scratch-path $(INSTALL_BUILD)
	patchelf $(foreach l,$(LAZY_NEEDED),--remove-needed $(l)) --output $(INSTALL_BIN).tmp $(INSTALL_BUILD)/release/quicksilver
	LD_BIND_NOW=1 $(INSTALL_BIN).tmp --version > /dev/null
	mv $(INSTALL_BIN).tmp $(INSTALL_BIN)

stage: deps installed
	rm -rf $(MAN_OUTPUTS)
	$(SWIFT) package plugin generate-manual --multi-page --date $(MAN_DATE)
	@rm -rf $(STAGE) && mkdir -p $(STAGE)/man1
	@cp $(MAN_OUTPUTS)/quicksilver/*.1 $(STAGE)/man1/
	@$(INSTALL_BIN) --generate-completion-script bash > $(STAGE)/quicksilver.bash
	@$(INSTALL_BIN) --generate-completion-script zsh > $(STAGE)/_quicksilver
	@$(INSTALL_BIN) --generate-completion-script fish > $(STAGE)/quicksilver.fish

# install and uninstall are packaging/install.sh. install writes a manifest of what it made,
# $(PREFIX)/share/quicksilver/install-manifest (the files, and the folders and cache files that were not
# there before); uninstall takes away exactly that: the files, the cache files if their cache now
# describes nothing else (after refreshing it), the folders if empty. Installing again keeps the
# manifest right. With DESTDIR the manifest names the final paths, and no cache is refreshed.
INSTALL_SH = DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" STAGE="$(STAGE)" BIN="$(INSTALL_BIN)" METAINFO="$(METAINFO)" \
	ICON_SIZES="$(ICON_SIZES)" MAN_PAGES="$(MAN_PAGES)" sh packaging/install.sh

install: stage
	@$(INSTALL_SH) install

uninstall:
	@$(INSTALL_SH) uninstall

# The desktop's caches under PREFIX (MIME, desktop entries, icons), where their tools are.
refresh-caches:
	@$(INSTALL_SH) refresh

# Installs into a temporary DESTDIR and checks what was installed (Tests/Install/check.py); then
# installs and uninstalls in temporary PREFIXes, beside a user's own files and another app's, and
# checks each is left exactly as it was (Tests/Install/uninstall.py).
test-install: install-test-deps stage
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
		$(MAKE) --no-print-directory -o stage install DESTDIR=$$tmp PREFIX=/usr >/dev/null; \
		python3 Tests/Install/check.py $$tmp/usr
	@python3 Tests/Install/uninstall.py

install-test-deps:
	$(call install-missing,$(TEST_DEBS) $(INSTALL_TEST_DEBS))

# Redraws the icon's PNG sizes from packaging/quicksilver.svg, and the window's own copy of them
# (Sources/quicksilver/AppIconPNGs.swift). Both are committed: building needs neither rsvg nor this.
icons:
	$(call install-missing,$(ICON_DEBS))
	for s in $(ICON_SIZES); do rsvg-convert -w $$s -h $$s packaging/quicksilver.svg -o packaging/icons/$${s}x$${s}.png || exit 1; done
	{ echo "// Generated by \`make icons\` from packaging/icons (rendered from packaging/quicksilver.svg): do not edit."; \
	  echo "/// The window's icon sizes as PNG files, base64: what \`AppIcon\` decodes for _NET_WM_ICON."; \
	  echo "enum AppIconPNGs {"; echo "    static let base64: [(size: Int, png: String)] = ["; \
	  for s in $(WINDOW_ICON_SIZES); do echo "        ($$s, \"$$(base64 -w0 packaging/icons/$${s}x$${s}.png)\"),"; done; \
	  echo "    ]"; echo "}"; } > Sources/quicksilver/AppIconPNGs.swift

clean:
	rm -rf .build $(INSTALL_BUILD) demo.png
