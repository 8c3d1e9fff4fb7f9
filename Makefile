# Thin wrappers over the go command; each target names what it runs.

FUZZTIME ?= 20s

.PHONY: run test calibration bench fuzz lint ladder weights chance chance-check report-screenshot playtest-screenshots

run:
	go run ./cmd/tallywood sim

test:
	go test ./...

# The tests with the calibration studies: Monte Carlo simulations of the
# error rates of compare's tests and of the words that mean within the
# tolerance, which go test ./... skips (the tests that call
# calibrationStudy). .ci/run runs this too. They take a few CPU-minutes,
# more than go test's default ten minutes on a loaded machine.
calibration:
	go test -tags calibration -timeout 30m ./...

bench:
	go test -run '^$$' -bench . -benchmem ./...

# The strength ladder of docs/policies.md, rewritten in place (the
# whole table takes about 20 minutes on two idle cores).
ladder:
	go run ./cmd/ladder -update docs/policies.md -levels -games 10000 \
		random builder pollster greedy learned 2000xmcts:iters=100 1000xmcts:iters=400 \
		2000xmcts:iters=100,prior=16 500xmcts:iters=400,prior=16

# The shipped weights of the learned score (sim/policy/value.json), trained
# again by the command recorded in the file (about 15 minutes on two idle
# cores; TestMakefileTrainsTheShippedWeights checks the two commands agree,
# and go test ./sim/policy/internal/train -run Regenerate -regen that the
# command makes the file).
weights:
	go run ./sim/policy/internal/train -seed 8000 -heldout 8001 -heldout-games 300 -hidden 32 -epochs 6 -lr 0.001 -decay 0.0001 -sharpen 20 -candidates 4 -select-games 2000 -select-seed 8003 -iterate 1 -iterate-games 3000 -iterate-spec mcts:iters=100,prior=16 2000xmcts:iters=400 -out sim/policy/value.json

# The shipped win-chance model (sim/policy/chance.json), trained again by
# the command recorded in the file (about 6 minutes on two loaded cores;
# TestMakefileTrainsTheShippedModel checks the two commands agree, and
# go test ./sim/policy/internal/chancefit -run Regenerates -regen that the
# command makes the file).
chance:
	go run ./sim/policy/internal/chancefit -seed 12000 -heldout 12001 -heldout-games 2000 -keep 0.25 -hidden 32 -epochs 6 -lr 0.002 -batch 256 -calib 0.2 -interval-seed 12003 -interval-positions 6000 -continuations 100 -knee-seed 12004 -knee-games 30000 novice=10000 casual=30000 skilled=30000 -out sim/policy/chance.json

# The win chance's calibration on held-out games (seed 12001) and the
# continuation check (positions of seed 12002, 100 continuations each), as
# docs/arc.md quotes them.
chance-check:
	go run ./sim/policy/internal/chancefit -check -heldout 12001 -heldout-games 2000 -check-seed 12002 -check-positions 300 -continuations 100 casual skilled

# go test -fuzz takes one target in one package at a time; every fuzzer
# of the tree is listed (TestMakeFuzzRunsEveryFuzzer checks it).
fuzz:
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./engine
	go test -run '^$$' -fuzz '^FuzzParseOptionID$$' -fuzztime $(FUZZTIME) ./engine
	go test -run '^$$' -fuzz '^FuzzWith$$' -fuzztime $(FUZZTIME) ./engine
	go test -run '^$$' -fuzz '^FuzzReadFileIn$$' -fuzztime $(FUZZTIME) ./engine/kit
	go test -run '^$$' -fuzz '^FuzzParseSheets$$' -fuzztime $(FUZZTIME) ./engine
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./opposition/scenario
	go test -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime $(FUZZTIME) ./opposition/script
	go test -run '^$$' -fuzz '^FuzzParseRecord$$' -fuzztime $(FUZZTIME) ./cmd/tallywood/play
	go test -run '^$$' -fuzz '^FuzzFlags$$' -fuzztime $(FUZZTIME) ./cmd/tallywood
	go test -run '^$$' -fuzz '^FuzzStudyFlags$$' -fuzztime $(FUZZTIME) ./cmd/tallywood
	go test -run '^$$' -fuzz '^FuzzStudy$$' -fuzztime $(FUZZTIME) ./sim
	go test -run '^$$' -fuzz '^FuzzParseShard$$' -fuzztime $(FUZZTIME) ./sim
	go test -run '^$$' -fuzz '^FuzzExpandValues$$' -fuzztime $(FUZZTIME) ./sim
	go test -run '^$$' -fuzz '^FuzzMerge$$' -fuzztime $(FUZZTIME) ./sim
	go test -run '^$$' -fuzz '^FuzzParseConfig$$' -fuzztime $(FUZZTIME) ./sim/policy/exec
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./sim/policy
	go test -run '^$$' -fuzz '^FuzzParseList$$' -fuzztime $(FUZZTIME) ./sim/policy
	go test -run '^$$' -fuzz '^FuzzParseChance$$' -fuzztime $(FUZZTIME) ./sim/policy
	go test -run '^$$' -fuzz '^FuzzParseNet$$' -fuzztime $(FUZZTIME) ./sim/policy
	go test -run '^$$' -fuzz '^FuzzNetGame$$' -fuzztime $(FUZZTIME) ./sim/policy
	go test -run '^$$' -fuzz '^FuzzFlags$$' -fuzztime $(FUZZTIME) ./sim/policy/internal/train
	go test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s ./sim/report
	go test -run '^$$' -fuzz '^FuzzParseDecisions$$' -fuzztime $(FUZZTIME) ./sim/playtest
	go test -run '^$$' -fuzz '^FuzzParseOutcomes$$' -fuzztime $(FUZZTIME) ./sim/playtest
	go test -run '^$$' -fuzz '^FuzzParseDecide$$' -fuzztime $(FUZZTIME) ./cmd/tallywood/serve
	go test -run '^$$' -fuzz '^FuzzParseHint$$' -fuzztime $(FUZZTIME) ./cmd/tallywood/serve
	go test -run '^$$' -fuzz '^FuzzParsePlanForm$$' -fuzztime $(FUZZTIME) ./cmd/tallywood/serve

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet ./...

# docs/report.png: the top of a real report (5,000 games per cell of the
# default sim grid) as headless Chromium draws it at 1280 px. Chromium
# runs as root here, hence --no-sandbox; the machine has no network, so
# its background services are off.
CHROMIUM ?= chromium
CHROMIUM_FLAGS = --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars

report-screenshot:
	dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	go build -o "$$dir/tallywood" ./cmd/tallywood && cd "$$dir" && \
	./tallywood sim --games 5000 --seed 1 --format json --out sim.json --quiet && \
	./tallywood report sim.json --out report.html && \
	$(CHROMIUM) $(CHROMIUM_FLAGS) --user-data-dir="$$dir/profile" --window-size=1280,1500 \
		--screenshot="$(CURDIR)/docs/report.png" "file://$$dir/report.html" 2>/dev/null

# docs/playtest-1280.png and docs/playtest-390.png: the play page of a game
# under way, after an Opposition's turn, as the browser test drives it in
# headless Chromium at 1280 and 390 px (cmd/tallywood/serve TestBrowser).
playtest-screenshots:
	go test ./cmd/tallywood/serve -run '^TestBrowser$$' -count=1 -args -screenshots $(CURDIR)/docs
