# The two commands of the README: `make demo` and `make test`. Both install what is missing
# (scripts/setup.sh), build the release preset, and then run the demo or the tests.
PTMPL := build/release/tools/ptmpl/ptmpl
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local

.PHONY: all setup build demo test bench install asan warnings fuzz check-format clean

all: build

setup:
	@./scripts/setup.sh

# WERROR=ON makes compiler warnings errors in this build too: CI's release build is its warnings
# check (-O2 sees at least what -O0 sees), so CI does not compile everything a third time.
WERROR ?= OFF
build: setup
	@cmake --preset release -DPTMPL_WERROR=$(WERROR) >/dev/null
	@cmake --build --preset release -j $(JOBS)

demo: build
	@echo '$$ ptmpl lint samples/'
	@$(PTMPL) lint samples/; test $$? -le 1
	@echo
	@echo '$$ ptmpl fmt --check samples/*.json'
	@$(PTMPL) fmt --check samples/*.json && echo 'all samples are in canonical form'
	@echo
	@echo '$$ ptmpl gen --stories 12 --depth 2 --seed 3 | ptmpl lint -'
	@$(PTMPL) gen --stories 12 --depth 2 --seed 3 | $(PTMPL) lint -
	@echo
	@echo '$$ ptmpl schedule samples/software-release.json --format gantt --width 100'
	@$(PTMPL) schedule samples/software-release.json --format gantt --width 100
	@echo
	@echo '$$ ptmpl stats samples/software-release.json'
	@$(PTMPL) stats samples/software-release.json

test: build
	@ctest --preset release -j $(JOBS)

bench: build
	@build/release/tests/ptmpl_bench

# ptmpl with its man page and bash completion, and the library as a CMake package (docs/packaging.md).
install: build
	@cmake --install build/release --prefix $(PREFIX)

# The asan preset builds with clang (as the fuzz preset does): it compiles the sanitized build
# in about half GCC 12's time. clang and its sanitizer runtime are installed when missing.
asan:
	@./scripts/setup.sh clang libclang-rt-14-dev
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# The libFuzzer targets (clang, the fuzz preset in build/fuzz), each run for FUZZ_SECONDS from its
# seed corpus; FUZZ_TARGETS picks some (docs/robustness.md). clang is needed here and for asan.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	@./scripts/setup.sh clang libclang-rt-14-dev
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@./scripts/run-fuzzers.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The dev preset: Debug with warnings as errors (builds, no tests).
warnings: setup
	@cmake --preset dev >/dev/null
	@cmake --build --preset dev -j $(JOBS)

# Every tracked .cpp and .hpp as .clang-format says (what CI checks first); changes nothing.
check-format: setup
	@./scripts/check-format.sh

clean:
	@rm -rf build
