package nnue

import (
	_ "embed"
	"fmt"
	"sync"
)

// defaultFile is the network Twofold ships: trained by nnue/train on
// positions of Twofold's own self-play (its card in docs/networks.md gives
// its data, recipe and matches).
//
//go:embed default.nnue
var defaultFile []byte

var defaultNet = sync.OnceValues(func() (*Network, error) { return Parse(defaultFile) })

// DefaultName is how options and messages name the embedded network.
const DefaultName = "<default>"

// Default returns the embedded network, decoded once and shared (networks
// are read-only). The file is checked by the package's tests, so a decoding
// error means a broken build.
func Default() *Network {
	n, err := defaultNet()
	if err != nil {
		panic(fmt.Sprintf("nnue: the embedded network does not load: %v", err))
	}
	return n
}
