# gpucg's two commands (see README.md). Each installs what is missing first.
#   make demo    build, then run the bundled example through gpucg's passes
#   make check   build, then run every test; ends with "N passed, M failed"

BUILD_DIR ?= build

.PHONY: demo check

demo:
	@scripts/install-deps.sh
	@scripts/build.sh $(BUILD_DIR)
	@scripts/demo.sh $(BUILD_DIR)

check:
	@scripts/install-deps.sh
	@scripts/build.sh $(BUILD_DIR)
	@scripts/run-tests.sh $(BUILD_DIR)
