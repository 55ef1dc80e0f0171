# Quicksilver. `make run` and `make test` do all the set-up a fresh clone on a fresh machine needs.
SWIFT   ?= swift
DEMO    := Resources/demo.jsonl
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# System packages: headers to build, and the X server + input driver the end-to-end tests use.
BUILD_DEBS := libx11-dev libxext-dev libxi-dev libxpresent-dev libpng-dev libdeflate-dev libzip-dev pkg-config
TEST_DEBS  := xvfb xdotool xclip python3
# What `make bench` measures against: cairo, drawing the same strokes (Tests/Bench/files.py), and
# simdjson, parsing the same journal (Tests/Bench/simdjson_parse.cpp).
BENCH_DEBS := gcc g++ libcairo2-dev libsimdjson-dev

SOAK_MINUTES ?= 30
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= replay replay-fast-path png x11-events

.PHONY: run test bench build release deps test-deps bench-deps demo clean fuzz soak

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

# The benchmarks (the present and clipboard cases on $$DISPLAY when there is one), then event →
# pixels on screen measured from a second X client on a private Xvfb (Tests/Bench/latency.py),
# then whole-process `render` against cairo (Tests/Bench/files.py). parse.300k is compared with C++
# simdjson's NDJSON parser on the same journal (Tests/Bench/simdjson_parse.cpp, built here).
SIMDJSON_PARSE := .build/bench/simdjson_parse
bench: release test-deps bench-deps $(SIMDJSON_PARSE)
	.build/release/quicksilver bench --simdjson $(SIMDJSON_PARSE)
	python3 Tests/Bench/latency.py .build/release/quicksilver
	python3 Tests/Bench/files.py .build/release/quicksilver

$(SIMDJSON_PARSE): Tests/Bench/simdjson_parse.cpp | bench-deps
	@mkdir -p $(dir $@)
	g++ -O3 -std=c++17 -o $@ $< $$(pkg-config --cflags --libs simdjson)

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
	$(call install-missing,$(BUILD_DEBS))

test-deps:
	$(call install-missing,$(TEST_DEBS))

bench-deps:
	$(call install-missing,$(BENCH_DEBS))

clean:
	rm -rf .build demo.png
