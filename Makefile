# `make reproduce`: install what is missing, build in release mode, run the embedded default
# and write results/.   `make test`: install what is missing, run the test suite.
.PHONY: bootstrap test reproduce

bootstrap:
	@scripts/bootstrap

test: bootstrap
	swift test

reproduce: bootstrap
	swift build -c release
	.build/release/themelab reproduce
