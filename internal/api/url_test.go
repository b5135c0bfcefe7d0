package api

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://user:pass@ghe.example.com/api/v3":  "https://***@ghe.example.com/api/v3",
		"https://ghp_tok@ghe.example.com:8443/api":  "https://***@ghe.example.com:8443/api",
		"https://a@b:c@ghe.example.com":             "https://***@ghe.example.com",
		"https://ghe.example.com/api/v3?x=a@b":      "https://ghe.example.com/api/v3?x=a@b",
		"ghe.example.com/api/v3":                    "ghe.example.com/api/v3",
		"u:p%zz@ghe.example.com":                    "***@ghe.example.com",
		"https://ghe.example.com/api/v3/@not-creds": "https://ghe.example.com/api/v3/@not-creds",
		"http:/u:PASS@ghe.example.com/api/v3":       "http:/***@ghe.example.com/api/v3",
		"http:///u:PASS@ghe.example.com":            "http:///***@ghe.example.com",
		"http:u:PASS@ghe.example.com":               "***@ghe.example.com",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                 "https://api.github.com/",
		"https://ghe.example.com/api/v3":   "https://ghe.example.com/api/v3/",
		"https://ghe.example.com/api/v3//": "https://ghe.example.com/api/v3/",
		"http://127.0.0.1:8080":            "http://127.0.0.1:8080/",
	} {
		got, err := ParseURL(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseURL(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"ghe.example.com/api/v3":                         `got "ghe.example.com/api/v3"`,
		"ftp://ghe.example.com/":                         `got "ftp://ghe.example.com/"`,
		"https://octo:hunter2@ghe.example.com/api/v3":    "remove the user:password@ part",
		"https://octo:hun%zzter2@ghe.example.com/api/v3": "remove the user:password@ part",
		"http:/octo:hunter2@ghe.example.com/api/v3":      "remove the user:password@ part",
	} {
		_, err := ParseURL(in)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.HasPrefix(err.Error(), "want an absolute http or https URL without credentials") {
			t.Errorf("ParseURL(%q) = %v; want the one wording, saying %q", in, err, why)
			continue
		}
		for _, secret := range []string{"octo", "hunter2", "hun%zzter2"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("ParseURL(%q): %q shows %q", in, err, secret)
			}
		}
	}
}
