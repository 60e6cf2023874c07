# `make reproduce`: install what is missing, build in release mode, run every experiment and
# write results/.   `make test`: install what is missing, run the test suite.
# `make gate`: the CI regression gate (re-run Experiments/ci-gate.json, check it against results/baseline.json).
# Everything the commands read is in this repository or installed by scripts/bootstrap.
.PHONY: bootstrap test reproduce gate

bootstrap:
	@scripts/bootstrap

test: bootstrap
	swift test

reproduce: bootstrap
	swift build -c release
	.build/release/themelab reproduce

gate: bootstrap
	swift build -c release
	rm -rf .build/gate
	.build/release/themelab ablate Experiments/ci-gate.json --results .build/gate
	.build/release/themelab check --results .build/gate/ci-gate/ci-gate.json --baseline results/baseline.json
