package mind

import "strings"

// Kind is an option's type, as UCI names it.
type Kind string

// The kinds of option.
const (
	Check  Kind = "check"  // "true" or "false"
	Spin   Kind = "spin"   // a whole number from Min to Max
	Combo  Kind = "combo"  // one of Vars
	Button Kind = "button" // no value: setting it acts
	String Kind = "string" // any text
)

// Option is one of a searcher's own options, declared beside the searcher
// (its name, type, default and range) with the setter that applies it; the
// UCI loop lists and sets them, and the web board sets those it knows.
// Each searcher's options are in the order the UCI loop lists them.
type Option struct {
	Name    string
	Kind    Kind
	Default string // not for a Button
	// Min and Max bound a Spin.
	Min, Max int
	Vars     []string // a Combo's values
	// Set applies a value of the option's type: "true" or "false" for a
	// Check, a number within Min and Max for a Spin, one of Vars (in their
	// case) for a Combo. An error says why the value was refused or only
	// partly applied; the option then keeps what it says.
	Set func(value string) error
}

// Find returns the option of opts with the name (in any case).
func Find(opts []Option, name string) (Option, bool) {
	for _, o := range opts {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}
