# `make reproduce`: install what is missing, build in release mode, run every experiment and
# write results/ (vectors kept between runs in .themelab/cache). `make reproduce-cold`: the same with every text
# embedded afresh into a private cache (the same bytes).   `make test`: install what is missing, run the test suite (under the harness's BLAS kernel).
# `make check`: the unit tier alone (Tests/ThemeLabUnitTests: no command, experiment, weights or cluster), in well under a minute after the build.
# `make gate`: the CI regression gate (re-run Experiments/ci-gate.json, check it against results/baseline.json).
# `make fuzz`: every parser under libFuzzer for FUZZ_SECONDS each (default 600; CI runs 30).
# `make lint`: swift format (committed .swift-format) and no line over 140 characters.
# `make bench`: the benchmarks of Experiments/bench (pairs, scale, encoder) into results/bench/.
# `make fixtures`: re-create the reference fixtures (pinned numpy/scipy/scikit-learn and torch/sentence-transformers
# in a throwaway venv).   `make train-mlm`: train the masked-LM encoder of Datasets/encoders/ again (pinned torch,
# one thread, about 40 minutes; nothing else ever trains).
# `make install`: build the release binary and link `themelab` into $(PREFIX)/bin (default ~/.local/bin, no root
# needed), so `themelab …` runs this checkout's ./themelab from anywhere; `make uninstall` removes the link.
# Everything the commands read is in this repository or installed by scripts/bootstrap.
.PHONY: bootstrap install uninstall test check reproduce reproduce-cold gate fuzz lint bench fixtures train-mlm

PREFIX ?= $(HOME)/.local

bootstrap:
	@scripts/bootstrap

install: bootstrap
	./themelab --version
	@link="$(PREFIX)/bin/themelab"; \
	if { [ -e "$$link" ] || [ -L "$$link" ]; } && [ "$$(readlink "$$link")" != "$(CURDIR)/themelab" ]; then \
		echo "make install: $$link exists and is not this checkout's launcher; remove it or set PREFIX" >&2; exit 1; \
	fi; \
	mkdir -p "$(PREFIX)/bin" && ln -sfn "$(CURDIR)/themelab" "$$link" || exit 1; \
	echo "make install: $$link -> $(CURDIR)/themelab"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "make install: $(PREFIX)/bin is not on your PATH: add it, or run ./themelab";; esac

uninstall:
	@link="$(PREFIX)/bin/themelab"; \
	if [ "$$(readlink "$$link")" = "$(CURDIR)/themelab" ]; then rm "$$link" && echo "make uninstall: removed $$link"; fi

test: bootstrap
	scripts/test

check:
	scripts/test --unit

reproduce: bootstrap
	swift build -c release --product themelab
	.build/release/themelab reproduce

reproduce-cold: bootstrap
	swift build -c release --product themelab
	.build/release/themelab reproduce --cold

gate: bootstrap
	swift build -c release --product themelab
	rm -rf .build/gate
	.build/release/themelab ablate Experiments/ci-gate.json --out .build/gate
	.build/release/themelab check --results .build/gate/ci-gate/ci-gate.json --baseline results/baseline.json

fuzz: bootstrap
	scripts/fuzz

lint:
	scripts/lint

bench: bootstrap
	Experiments/bench/pairs
	Experiments/bench/scale
	Experiments/bench/encoder

fixtures: bootstrap
	scripts/fixtures/make-all

train-mlm: bootstrap
	scripts/fixtures/train-mlm
