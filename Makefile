# Quicksilver. `make run` and `make test` do all the set-up a fresh clone on a fresh machine needs.
SWIFT   ?= swift
DEMO    := Resources/demo.jsonl
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# System packages: headers to build, and the X server + input driver the end-to-end tests use.
BUILD_DEBS := libx11-dev libxext-dev libxi-dev libxpresent-dev libpng-dev libdeflate-dev pkg-config
TEST_DEBS  := xvfb xdotool xclip python3
# What `make bench` measures against: cairo, drawing the same strokes (Tests/Bench/files.py).
BENCH_DEBS := gcc libcairo2-dev

SOAK_MINUTES ?= 30
FUZZ_INPUTS  ?= 1000000

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

# Unit, golden, CLI and window tests (including a fuzz smoke run), then a 30-second soak that
# checks only what cannot depend on the machine's speed (no crash, memory, the restored journal).
test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) --no-print-directory release
	python3 Tests/Soak/soak.py .build/release/quicksilver 0.5

# The replay parser's mutation fuzzer under AddressSanitizer: FUZZ_INPUTS inputs over two workers.
fuzz: deps
	$(SWIFT) build -c release --sanitize=address --scratch-path .build-fuzz --product replay-fuzz
	.build-fuzz/release/replay-fuzz Tests/Fixtures/corpus $$(( $(FUZZ_INPUTS) / 2 )) 1 & a=$$!; \
	.build-fuzz/release/replay-fuzz Tests/Fixtures/corpus $$(( $(FUZZ_INPUTS) - $(FUZZ_INPUTS) / 2 )) 2 & b=$$!; \
	wait $$a && wait $$b

# The open window under synthetic 1 kHz input for SOAK_MINUTES (default 30), with the frame-rate
# and missed-deadline gates (the README's figures).
soak: release test-deps
	python3 Tests/Soak/soak.py .build/release/quicksilver $(SOAK_MINUTES) --speed-gates

# The benchmarks (the present and clipboard cases on $$DISPLAY when there is one), then event →
# pixels on screen measured from a second X client on a private Xvfb (Tests/Bench/latency.py),
# then whole-process `render` against cairo (Tests/Bench/files.py).
bench: release test-deps bench-deps
	.build/release/quicksilver bench
	python3 Tests/Bench/latency.py .build/release/quicksilver
	python3 Tests/Bench/files.py .build/release/quicksilver

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
