package tournament

import "fmt"

func fmtInts(v []int) string { return fmt.Sprint(v) }

const drawVector = "[2 4 3 5 6 0 7 1]"
