# Quicksilver. `make run` and `make test` do all the set-up a fresh clone on a fresh machine needs.
SWIFT   ?= swift
DEMO    := Resources/demo.jsonl
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# System packages: headers to build, and the X server + input driver the end-to-end tests use.
# The text stack's headers (fontconfig, FreeType, HarfBuzz: the Text module) are build packages;
# FONT_DEBS is what it draws with: DejaVu Sans, the UI's font, and fontconfig's tools, whose
# fc-cache keeps the font cache current as fonts come and go.
BUILD_DEBS := libx11-dev libxext-dev libxi-dev libxpresent-dev libpng-dev libdeflate-dev libzip-dev pkg-config \
	libfontconfig-dev libfreetype-dev libharfbuzz-dev
FONT_DEBS  := fonts-dejavu-core fontconfig
# fonts-droid-fallback: a small CJK font, for TextTests' fallback case.
TEST_DEBS  := xvfb xdotool xclip python3 ffmpeg fonts-droid-fallback
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
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= replay replay-fast-path png x11-events

.PHONY: run test bench build release deps test-deps bench-deps demo clean fuzz soak install uninstall stage icons test-install install-test-deps refresh-caches bench-timelapse interop

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

# The benchmarks (the present and clipboard cases on $$DISPLAY when there is one; the stabilizer table
# beside libmypaint's slow tracking, .build/bench/mypaint-track), then event →
# pixels on screen measured from a second X client on a private Xvfb (Tests/Bench/latency.py),
# then whole-process `render` against cairo (Tests/Bench/files.py). parse.300k is compared with C++
# simdjson's NDJSON parser on the same journal (Tests/Bench/simdjson_parse.cpp, built here), play.300k
# with cairo drawing its strokes (Tests/Bench/cairo_play.c).
SIMDJSON_PARSE := .build/bench/simdjson_parse
CAIRO_PLAY     := .build/bench/cairo_play
bench: release test-deps bench-deps .build/bench/mypaint-track $(SIMDJSON_PARSE) $(CAIRO_PLAY)
	.build/release/quicksilver bench --mypaint .build/bench/mypaint-track --simdjson $(SIMDJSON_PARSE) --cairo $(CAIRO_PLAY)
	python3 Tests/Bench/latency.py .build/release/quicksilver
	python3 Tests/Bench/files.py .build/release/quicksilver

.build/bench/mypaint-track: Tests/Bench/mypaint-track.c | bench-deps
	@mkdir -p .build/bench
	gcc -O2 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs libmypaint) -lm

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
# the binary's --generate-completion-script) into $(STAGE), never written by hand.
PREFIX  ?= /usr/local
DESTDIR ?=
# PREFIX=~/.local reaches make unexpanded from shells that expand no ~ after "=" (zsh).
override PREFIX := $(patsubst ~%,$(HOME)%,$(PREFIX))
STAGE   := .build/install-stage
ICON_SIZES := 16 22 24 32 48 64 128 256
# The icon sizes the window carries itself (_NET_WM_ICON), embedded in the binary by `make icons`.
WINDOW_ICON_SIZES := 16 32 48 64
METAINFO := io.github.quicksilver_paint.quicksilver.metainfo.xml
# The pages' date: the last commit's, so that the same source gives the same pages.
MAN_DATE := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

# The installed binary carries the Swift runtime (--static-swift-stdlib), so it runs without the
# toolchain; built in a folder of its own, as those flags would rebuild .build/release whole.
INSTALL_BUILD := .build-install
INSTALL_BIN   := $(INSTALL_BUILD)/release/quicksilver

stage: deps
	$(SWIFT) package plugin generate-manual --multi-page --date $(MAN_DATE)
	$(SWIFT) build -c release --static-swift-stdlib --product quicksilver --scratch-path $(INSTALL_BUILD)
	rm -rf $(STAGE) && mkdir -p $(STAGE)/man1
	cp .build/plugins/GenerateManual/outputs/quicksilver/*.1 $(STAGE)/man1/
	$(INSTALL_BIN) --generate-completion-script bash > $(STAGE)/quicksilver.bash
	$(INSTALL_BIN) --generate-completion-script zsh > $(STAGE)/_quicksilver
	$(INSTALL_BIN) --generate-completion-script fish > $(STAGE)/quicksilver.fish

install: stage
	install -Dm755 -s $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/quicksilver
	install -Dm644 packaging/quicksilver.desktop $(DESTDIR)$(PREFIX)/share/applications/quicksilver.desktop
	install -Dm644 packaging/quicksilver-session.xml $(DESTDIR)$(PREFIX)/share/mime/packages/quicksilver-session.xml
	install -Dm644 packaging/$(METAINFO) $(DESTDIR)$(PREFIX)/share/metainfo/$(METAINFO)
	install -Dm644 packaging/quicksilver.svg $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/quicksilver.svg
	for s in $(ICON_SIZES); do install -Dm644 packaging/icons/$${s}x$${s}.png $(DESTDIR)$(PREFIX)/share/icons/hicolor/$${s}x$${s}/apps/quicksilver.png || exit 1; done
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 && install -m644 $(STAGE)/man1/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -Dm644 $(STAGE)/quicksilver.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/quicksilver
	install -Dm644 $(STAGE)/_quicksilver $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_quicksilver
	install -Dm644 $(STAGE)/quicksilver.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/quicksilver.fish
	@[ -n "$(DESTDIR)" ] || $(MAKE) --no-print-directory refresh-caches
	@echo "installed into $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/quicksilver $(DESTDIR)$(PREFIX)/share/applications/quicksilver.desktop \
		$(DESTDIR)$(PREFIX)/share/mime/packages/quicksilver-session.xml $(DESTDIR)$(PREFIX)/share/metainfo/$(METAINFO) \
		$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/quicksilver.svg \
		$(foreach s,$(ICON_SIZES),$(DESTDIR)$(PREFIX)/share/icons/hicolor/$(s)x$(s)/apps/quicksilver.png) \
		$(DESTDIR)$(PREFIX)/share/man/man1/quicksilver.1 $(DESTDIR)$(PREFIX)/share/man/man1/quicksilver.*.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/quicksilver $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_quicksilver \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/quicksilver.fish
	@[ -n "$(DESTDIR)" ] || $(MAKE) --no-print-directory refresh-caches

# The desktop's caches, where their tools are there (a desktop has them; a server need not).
refresh-caches:
	@if command -v update-mime-database >/dev/null; then update-mime-database $(PREFIX)/share/mime || true; fi
	@if command -v update-desktop-database >/dev/null; then update-desktop-database -q $(PREFIX)/share/applications || true; fi
	@if [ -f $(PREFIX)/share/icons/hicolor/index.theme ] && command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -f $(PREFIX)/share/icons/hicolor || true; fi

# Installs into a temporary DESTDIR and checks what was installed (Tests/Install/check.py).
test-install: install-test-deps
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
		$(MAKE) --no-print-directory install DESTDIR=$$tmp PREFIX=/usr >/dev/null; \
		python3 Tests/Install/check.py $$tmp/usr; \
		$(MAKE) --no-print-directory uninstall DESTDIR=$$tmp PREFIX=/usr >/dev/null; \
		left=$$(find $$tmp -type f); if [ -n "$$left" ]; then echo "uninstall left: $$left"; exit 1; fi; \
		echo "uninstall removed every file it installed"

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
