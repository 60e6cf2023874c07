# `make reproduce`: install what is missing, build in release mode, run every experiment and
# write results/.   `make test`: install what is missing, run the test suite.
# Real corpora (CLINC150) are read from THEMELAB_DATA, by default ../shared/datasets when it exists.
THEMELAB_DATA ?= $(abspath $(wildcard ../shared/datasets))
export THEMELAB_DATA
.PHONY: bootstrap test reproduce

bootstrap:
	@scripts/bootstrap

test: bootstrap
	swift test

reproduce: bootstrap
	swift build -c release
	.build/release/themelab reproduce
