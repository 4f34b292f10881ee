package book

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/twofold-chess/twofold/movegen"
)

// ReadEPD reads opening positions (a suite such as 2moves_v1.epd) from an EPD or FEN file: the first
// four fields of each line are the position (clocks default to "0 1").
func ReadEPD(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var fens []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			continue
		}
		fen := strings.Join(fields[:4], " ")
		if _, err := movegen.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		fens = append(fens, fen)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(fens) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return fens, nil
}
