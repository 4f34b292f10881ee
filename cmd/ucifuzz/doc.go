// Command ucifuzz stress-tests a UCI engine binary: it runs it as a
// subprocess with generated and mutated command sequences and checks that
// it stays alive, answers isready, stops on stop and only plays legal
// moves. See package ucifuzz and docs/testing.md.
package main
