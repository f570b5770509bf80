//go:build !race

package b

import "testing"

func TestShared(t *testing.T) {}
