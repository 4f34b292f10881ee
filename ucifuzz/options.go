package ucifuzz

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// OptionDecl is one "option name ... type ..." line of the engine's "uci"
// answer; the fuzzer sets every declared option, so a new option is fuzzed
// without touching the fuzzer.
type OptionDecl struct {
	Name     string
	Type     string // check, spin, combo, button, string
	Default  string
	Min, Max int64
	Vars     []string
}

// ParseOptionDecl reads an option declaration; ok is false for other lines.
// Names, defaults and vars may hold spaces, so each runs to the next keyword.
func ParseOptionDecl(line string) (OptionDecl, bool) {
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[0] != "option" || fields[1] != "name" {
		return OptionDecl{}, false
	}
	var d OptionDecl
	key := ""
	var cur []string
	flush := func() {
		v := strings.Join(cur, " ")
		switch key {
		case "name":
			d.Name = v
		case "type":
			d.Type = v
		case "default":
			d.Default = v
		case "min":
			d.Min, _ = strconv.ParseInt(v, 10, 64)
		case "max":
			d.Max, _ = strconv.ParseInt(v, 10, 64)
		case "var":
			d.Vars = append(d.Vars, v)
		}
		cur = nil
	}
	for _, f := range fields[1:] {
		switch f {
		case "name", "type", "default", "min", "max", "var":
			// "name" and the value words may repeat inside a name only in
			// theory; the engine's names never do.
			if key != "name" || f != "name" {
				flush()
				key = f
				continue
			}
		}
		cur = append(cur, f)
	}
	flush()
	return d, d.Name != "" && d.Type != ""
}

// QueryOptions runs the engine once, sends "uci" and returns the options it
// declares.
func QueryOptions(o RunOptions) ([]OptionDecl, error) {
	o.defaults()
	cmd := exec.Command(o.Engine, o.Args...)
	cmd.Dir = o.Dir
	cmd.Env = append(os.Environ(), o.Env...)
	cmd.Stdin = strings.NewReader("uci\n")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	timer := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	var decls []OptionDecl
	sawUCIOK := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if d, ok := ParseOptionDecl(sc.Text()); ok {
			decls = append(decls, d)
		}
		if strings.TrimSpace(sc.Text()) == "uciok" {
			sawUCIOK = true
		}
	}
	werr := cmd.Wait()
	if !sawUCIOK {
		return nil, fmt.Errorf("%s did not answer uci with uciok (%v)", o.Engine, werr)
	}
	return decls, nil
}
