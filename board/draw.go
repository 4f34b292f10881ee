package board

// FiftyMoveRule reports whether 100 plies have passed without a capture or
// pawn move. A checkmate delivered on that ply still wins: callers look for
// mate first (movegen.Status does).
func (p *Position) FiftyMoveRule() bool { return p.halfmove >= 100 }

// Repetitions returns how many times the current position occurred before in
// the game. Only positions since the last irreversible move (capture, pawn
// move, or a change of castling rights, which all reset or bound the clock)
// with the same side to move can repeat, so the scan steps two plies back at
// a time and stops at the halfmove clock.
func (p *Position) Repetitions() int {
	n := 0
	limit := min(p.halfmove, len(p.history))
	for i := 4; i <= limit; i += 2 {
		if p.history[len(p.history)-i].key == p.key {
			n++
		}
	}
	// Two plies back is never the same position (the other side moved once),
	// so the scan starts four plies back.
	return n
}

// ThreefoldRepetition reports whether the position occurs for the third time.
func (p *Position) ThreefoldRepetition() bool { return p.Repetitions() >= 2 }

// InsufficientMaterial reports a dead position by material: king against
// king, king and one minor piece against king, or kings and bishops only with
// every bishop on squares of one colour (which covers K+B v K+B same colour).
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	minors := p.byType[Knight] | p.byType[Bishop]
	if !minors.More() {
		return true // K v K, or K + one minor v K
	}
	if p.byType[Knight] != 0 {
		return false
	}
	bishops := p.byType[Bishop]
	return bishops&LightSquares == 0 || bishops&^LightSquares == 0
}

// IsRepetition reports whether the current position occurred before, within
// reach of the halfmove clock. Searches treat a single repetition as a draw:
// if repeating was good once, it is good again, so the line is drawn.
func (p *Position) IsRepetition() bool {
	limit := min(p.halfmove, len(p.history))
	for i := 4; i <= limit; i += 2 {
		if p.history[len(p.history)-i].key == p.key {
			return true
		}
	}
	return false
}

// NonPawnMaterial reports whether colour c has a piece other than king and pawns
// (searches skip the null move without one: zugzwang is then likely).
func (p *Position) NonPawnMaterial(c Color) bool {
	return p.byColor[c]&^(p.byType[Pawn]|p.byType[King]) != 0
}
