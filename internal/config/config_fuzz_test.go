package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzParse: no value of any input, nor of the environment, may make Parse
// panic; what it accepts is within bounds, what it refuses is reported per
// input, and the token shows nowhere. The seeds run in every go test.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct {
		which       uint8
		value, rest string
	}{
		{0, "", ""},
		{4, "3.5", "true"},
		{4, "-1", "-1"},
		{4, "99999999999999999999999", "x"},
		{10, "lifecycle/stale", " , ,"},
		{2, "{{author}} {{nope}}", "{{"},
		{2, "{{ days-inactive }}", "}}{{"},
		{1, "o/r", "a/b/c"},
		{1, "../..", "/"},
		{0, "tok en", "\x00"},
		{30, "2024-01-02T15:04:05+02:00", "Tue, 02 Jan 2024 15:04:05 +0000"},
		{30, "2024-02-30", "Mon, 32 Jan 2024 15:04:05 +0000"},
		{40, "1m0.000000001s", "-0s"},
		{40, "9223372036854775807ns", "1h"},
		{35, "PEOPLE", "comments"},
		{255, "\xff\xfe", "\n\n"},
		{7, strings.Repeat("9", 200), strings.Repeat("é", 100)},
	} {
		f.Add(seed.which, seed.value, seed.rest)
	}
	f.Fuzz(func(t *testing.T, which uint8, value, rest string) {
		const token = "fuzz-s3cr3t"
		target := Inputs[int(which)%len(Inputs)].Name
		src := Source{
			Input: func(name string) (string, bool) {
				if name == target {
					return value, true
				}
				if name == InputRepoToken {
					return "", false
				}
				return rest, which%2 == 0
			},
			Env: func(name string) string {
				switch name {
				case EnvToken:
					return token
				case EnvRepository:
					return "octo/hello"
				case EnvAPIURL:
					return rest
				}
				return ""
			},
		}
		c, err := Parse(src)
		if err != nil {
			checkParseRefusal(t, err, token)
			return
		}
		checkParseAccepted(t, c, token, value+rest)
	})
}

// checkParseRefusal checks that Parse's refusal is a non-empty Errors, each
// naming its input and saying why, none revealing the token.
func checkParseRefusal(t *testing.T, err error, token string) {
	t.Helper()
	var errs Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		t.Fatalf("error %T %v is not a non-empty Errors", err, err)
	}
	for _, e := range errs {
		if e.Name == "" || e.Msg == "" {
			t.Errorf("incomplete error %#v", e)
		}
		if strings.Contains(e.Error(), token) {
			t.Errorf("error reveals the token: %v", e)
		}
	}
}

// checkParseAccepted checks that an accepted config is within bounds, its
// lists trimmed, and that no way of printing it shows the token (unless the
// inputs themselves, given, spell it).
func checkParseAccepted(t *testing.T, c Config, token, given string) {
	t.Helper()
	p := c.Policy
	if p.DaysBeforeStale < -1 || p.DaysBeforeStale > maxDays || p.DaysBeforeClose < -1 || p.DaysBeforeClose > maxDays ||
		p.StaleLabel == "" || c.OperationsPerRun < 1 || c.RateLimitReserve < 0 || c.WriteInterval < 0 ||
		c.Owner == "" || c.Repo == "" || c.Token == "" {
		t.Errorf("accepted an out-of-bounds config: %+v", c)
	}
	for _, l := range append(append([]string{}, p.ExemptLabels...), c.LabelsToAddWhenUnstale...) {
		if l == "" || l != strings.TrimSpace(l) {
			t.Errorf("list item %q not trimmed", l)
		}
	}
	if string(c.Token) != token || strings.Contains(given, "s3cr3t") {
		return
	}
	for _, verb := range []string{"%v", "%#v", "%s", "%d"} {
		if out := fmt.Sprintf(verb, c); strings.Contains(out, token) {
			t.Errorf("output reveals the token: %s", out)
		}
	}
}
