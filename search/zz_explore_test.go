package search_test

import (
	"fmt"
	"testing"

	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

func TestZZExplore(t *testing.T) {
	for _, c := range []struct {
		fen   string
		depth int
	}{
		{"5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1", 4},
		{"5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1 moves", 4},
	} {
		p, err := movegen.ParseFEN(c.fen[:len(c.fen)-0])
		if err != nil {
			p, _ = movegen.ParseFEN("5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1")
			for _, s := range []string{"d5g8"} {
				m, err := movegen.ParseUCI(p, s)
				if err != nil {
					t.Fatal(err)
				}
				p.Make(m)
			}
			fmt.Println(p.FEN())
		}
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		for _, m := range ml.Moves() {
			fmt.Print(movegen.SAN(p, m), " ")
		}
		fmt.Println()
		s := search.New(16, search.Options{})
		r := s.Search(p, search.Limits{Depth: c.depth}, func(i search.Info) {
			fmt.Printf("  d%d sc %d pv %v\n", i.Depth, i.Score, i.PV)
		})
		fmt.Println(c.fen, movegen.SAN(p, r.Best), r.Score, r.Depth, r.Nodes)
	}
}
