package config

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// quiet-periods: the UTC days when stalepr marks, closes and nudges
// nothing, and which no clock counts (lifecycle.Quiet). The grammar,
// comma-separated (or one a line), any letter case:
//
//	2026-12-20..2027-01-06   a range of days, both included
//	2026-12-25               one day
//	sat, sunday              a weekday, every week (mon ... sun, monday ... sunday)
//
// Overlapping ranges are fine.
const inputQuietPeriods = "quiet-periods"

// Bounds of quiet-periods: enough for years of holidays; a range longer
// than a year is turning stalepr off, which needs no quiet period.
const (
	maxQuietItems     = 50
	maxQuietRangeDays = 366
)

const quietForms = "comma-separated UTC date ranges FIRST..LAST (2026-12-20..2027-01-06, both days included), " +
	"single dates (2026-12-25) or weekdays (mon, tue, wed, thu, fri, sat, sun, or written out: saturday)"

var weekdayNames = func() map[string]time.Weekday {
	m := map[string]time.Weekday{}
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		m[name], m[name[:3]] = d, d
	}
	return m
}()

// quietPeriods reads quiet-periods; unset is none.
func quietPeriods(field func(*Config) *lifecycle.Quiet) target {
	return store(List, field, func(p *parser, in Input) (lifecycle.Quiet, bool) {
		v, _ := p.value(in)
		q, err := ParseQuiet(v)
		if err != nil {
			p.fail(in.Name, "%v: want %s, got %s", err, quietForms, quote(v))
			return lifecycle.Quiet{}, false
		}
		return q, true
	})
}

// ParseQuiet reads a quiet-periods value (see inputQuietPeriods); the
// error says which item is wrong and why.
func ParseQuiet(v string) (lifecycle.Quiet, error) {
	items, err := SplitList(v)
	if err != nil {
		return lifecycle.Quiet{}, err
	}
	if len(items) > maxQuietItems {
		return lifecycle.Quiet{}, fmt.Errorf("%d items, at most %d are accepted", len(items), maxQuietItems)
	}
	var ranges []lifecycle.DayRange
	var weekdays []time.Weekday
	for _, item := range items {
		if d, ok := weekdayNames[strings.ToLower(item)]; ok {
			weekdays = append(weekdays, d)
			continue
		}
		r, err := parseDayRange(item)
		if err != nil {
			return lifecycle.Quiet{}, err
		}
		ranges = append(ranges, r)
	}
	q, err := lifecycle.NewQuiet(ranges, weekdays)
	if errors.Is(err, lifecycle.ErrEveryWeekday) {
		return q, errors.New("all seven weekdays are quiet, so no clock would ever run")
	}
	return q, err
}

// parseDayRange reads FIRST..LAST or one date.
func parseDayRange(item string) (lifecycle.DayRange, error) {
	first, last, isRange := strings.Cut(item, "..")
	a, err := parseDay(item, first)
	if err != nil {
		return lifecycle.DayRange{}, err
	}
	if !isRange {
		return lifecycle.DayRange{First: a, Last: a}, nil
	}
	b, err := parseDay(item, last)
	switch {
	case err != nil:
		return lifecycle.DayRange{}, err
	case b.Before(a):
		return lifecycle.DayRange{}, fmt.Errorf("%s ends before it starts", quote(item))
	case b.Sub(a) >= maxQuietRangeDays*lifecycle.Day:
		return lifecycle.DayRange{}, fmt.Errorf("%s is longer than %d days", quote(item), maxQuietRangeDays)
	}
	return lifecycle.DayRange{First: a, Last: b}, nil
}

func parseDay(item, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if !strings.Contains(item, "..") && !strings.ContainsAny(item, "0123456789") {
			return time.Time{}, fmt.Errorf("%s is neither a date nor a weekday", quote(item))
		}
		return time.Time{}, fmt.Errorf("%s in %s is not a date YYYY-MM-DD", quote(s), quote(item))
	}
	return t, nil
}
