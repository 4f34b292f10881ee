package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scripts that rebuild the shipped networks (scripts/recipe-*.sh) must
// stay runnable: their dry runs print every command, and each engine
// subcommand's flags must be flags of this binary, each Python tool's flags
// flags of the tool in the repository.

// recipeSteps are lines each recipe must print, so the recipe itself cannot
// drift unseen: the last step of each shipped network.
var recipeSteps = map[string][]string{
	"recipe-nnue.sh": {
		"datagen --out runs/recipe-nnue/data/hce.bin --network none --nodes 5000",
		"--data runs/recipe-nnue/data/net8-gen.bin runs/recipe-nnue/data/net9-gen.bin runs/recipe-nnue/data/net12-gen.bin " +
			"--hidden 256 --output-buckets 8 --epochs 22 --lr-decay 0.88 --batch 4096 --mirror",
	},
	"recipe-zero.sh": {
		"train --run-dir runs/recipe-zero/r1 ",
		"climb --run-dir runs/recipe-zero/climb --init-network runs/recipe-zero/n4x32/n4x32-ft.onnx ",
		"--rounds 6 --games 24000 --seed 72 --gumbel 16 --playouts 64 --fast-playouts 16 --workers 2 --parallel 16 " +
			"--max-plies 300 --holdout 24 --batch 1024 --steps 3000,900 --lr 0.01,0.001 --ladder-playouts 800 " +
			"--ladder-games 50 --ladder-rungs alphabeta-d3,alphabeta-d4 --ladder-seeds 1,2,3 --never-promote --ema 0.999",
		"--rounds 7 --games 24000 --seed 73 --gumbel 16 --playouts 64 --fast-playouts 16 --workers 2 --parallel 16 " +
			"--max-plies 300 --holdout 24 --batch 1024 --steps 6000,1800 --lr 0.01,0.001 --ladder-playouts 800 " +
			"--ladder-games 50 --ladder-rungs alphabeta-d3,alphabeta-d4 --ladder-seeds 1,2,3 --always-promote " +
			"--ema 0.999 --window 2",
		"cp runs/recipe-zero/climb/round-007/network.onnx runs/recipe-zero/round7/r7w.onnx",
		"--rounds 8 --games 25000 --seed 74 --gumbel 16 --playouts 128 --fast-playouts 32 --workers 2 --parallel 16 " +
			"--max-plies 300 --holdout 24 --batch 1024 --steps 3125,940 --lr 0.01,0.001 --ladder-playouts 800 " +
			"--ladder-games 50 --ladder-rungs alphabeta-d3,alphabeta-d4 --ladder-seeds 1,2,3 --always-promote " +
			"--ema 0.999",
		"cp runs/recipe-zero/climb/round-008/network.onnx runs/recipe-zero/round8/r8p.onnx",
		"--rounds 10 --games 20000 --seed 77 --gumbel 16 --playouts 128 --fast-playouts 32 --workers 2 --parallel 16 " +
			"--max-plies 300 --holdout 24 --batch 1024 --steps 5625,1690 --lr 0.01,0.001 --ladder-playouts 800 " +
			"--ladder-games 50 --ladder-rungs alphabeta-d3,alphabeta-d4 --ladder-seeds 1,2,3 --never-promote " +
			"--ema 0.999 --window 2",
		"grow.py --network runs/recipe-zero/round8/r8p.onnx --channels 48 --out runs/recipe-zero/r10g/grown.onnx",
		"--target-key seg2 --sample-set runs/recipe-zero/climb/round-010/set --batch 1024 --ema 0.999 " +
			"--log-every 50 --steps 1690 --lr 0.001 --export runs/recipe-zero/r10g/r10g.onnx",
	},
}

func TestRecipesUseRealFlags(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	helpFlag := regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+)`)
	for script, steps := range recipeSteps {
		cmd := exec.Command("bash", filepath.Join(root, "scripts", script), "--dry-run")
		cmd.Env = append(os.Environ(), "RUN_DIR=", "ENGINE=", "PYTHON=python3", "DRY_RUN=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s --dry-run: %s", script, out)
		text := string(out)
		for _, s := range steps {
			assert.Contains(t, text, s, script)
		}
		engines, pythons := 0, 0
		for _, line := range strings.Split(text, "\n") {
			line, _, _ = strings.Cut(line, " > ")
			words := strings.Fields(line)
			if len(words) < 2 {
				continue
			}
			var known string
			switch {
			case strings.HasSuffix(words[0], "/engine"):
				engines++
				code, help, _ := engine(t, "", words[1], "--help")
				require.Equal(t, 0, code, "%s: engine %s --help", script, words[1])
				for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
					known += " --" + m[1] + " "
				}
			case words[0] == "python3":
				pythons++
				src, err := os.ReadFile(filepath.Join(root, words[1]))
				require.NoError(t, err, "%s runs %s", script, words[1])
				known = string(src)
			default:
				continue
			}
			for _, w := range words[2:] {
				if !strings.HasPrefix(w, "--") {
					continue
				}
				flag, _, _ := strings.Cut(w, "=")
				if strings.HasSuffix(words[0], "/engine") {
					assert.Contains(t, known, " "+flag+" ", "%s: %s", script, line)
				} else {
					assert.Contains(t, known, `"`+flag+`"`, "%s: %s", script, line)
				}
			}
		}
		assert.Greater(t, engines, 5, script)
		assert.Greater(t, pythons, 5, script)
	}
}

// Every shell script in scripts/ parses.
func TestScriptsParse(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	scripts, err := filepath.Glob("../../scripts/*.sh")
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	for _, s := range scripts {
		out, err := exec.Command("bash", "-n", s).CombinedOutput()
		assert.NoError(t, err, "bash -n %s: %s", s, out)
	}
}

// --stop-after takes every stage a recipe announces and refuses others.
func TestRecipesStopAfter(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, tc := range []struct{ script, stage, want string }{
		{"recipe-zero.sh", "round7", "# stopped after round7"},
		{"recipe-nnue.sh", "net12", "# stopped after net12"},
		{"recipe-zero.sh", "net12", "no stage net12; the stages: r1 z29 "},
	} {
		cmd := exec.Command("bash", filepath.Join("../../scripts", tc.script), "--dry-run", "--stop-after", tc.stage)
		cmd.Env = append(os.Environ(), "RUN_DIR=", "ENGINE=", "PYTHON=python3", "DRY_RUN=")
		out, _ := cmd.CombinedOutput()
		assert.Contains(t, string(out), tc.want, "%s --stop-after %s", tc.script, tc.stage)
		if strings.HasPrefix(tc.want, "#") {
			assert.NotContains(t, string(out), "# == round8", tc.script)
		}
	}
}
