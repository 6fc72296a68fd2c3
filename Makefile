# gpucg's two commands (see README.md), and make bench. Each installs what is
# missing first.
#   make demo    build, then run the bundled example through gpucg's passes
#   make check   build, then run every test; ends with "N passed, M failed"
#   make bench   build, compile the benchmark's kernels, check and time them
#                against cuBLAS (and Triton) on this machine's GPU
#                (bench/run.sh, docs/Benchmark.md; BENCH_ARGS="--filter llama")
#
# `make check` runs the lit suite twice: in the normal build (BUILD_DIR), then
# in the checked build (CHECKED_BUILD_DIR: assertions, ASan and UBSan in gpucg's
# code; docs/Building.md). `make check CHECKED_BUILD_DIR=` skips the second.

BUILD_DIR ?= build
CHECKED_BUILD_DIR ?= build-checked

.PHONY: demo check bench

demo:
	@scripts/install-deps.sh
	@scripts/build.sh $(BUILD_DIR)
	@scripts/demo.sh $(BUILD_DIR)

check:
	@scripts/install-deps.sh
	@scripts/build.sh $(BUILD_DIR)
	@scripts/run-tests.sh $(BUILD_DIR) $(if $(CHECKED_BUILD_DIR),--checked $(CHECKED_BUILD_DIR))

bench:
	@scripts/install-deps.sh
	@bench/run.sh --build-dir $(BUILD_DIR) $(BENCH_ARGS)
