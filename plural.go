package kompact

import "strconv"

// CountOf is n and noun for people, the noun in the plural unless n is 1:
// "1 message", "10 messages". Every note and report line that counts
// something writes its count with it. The nouns it is given take an "s".
func CountOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
