package main

import (
	"context"
	"errors"

	"github.com/stalepr/stalepr/internal/config"
	"github.com/stalepr/stalepr/internal/dashboard"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// sweepWithDashboard is the sweep, then the dashboard issue when
// dashboard-issue is set: its requests are held back from the sweep's
// budget, and the Result's request counts include them. It returns the
// dashboard's error, if any, for a warning: the sweep's work stands.
func sweepWithDashboard(ctx context.Context, client *ghapi.Client, cfg config.Config, res func() sweep.Result, log *logger) (sweep.Result, error) {
	if cfg.DashboardIssue == "" {
		return res(), nil
	}
	release := client.Hold(dashboard.Cost)
	r := res()
	release()
	var err error
	switch {
	case r.ListingFailed(), errors.Is(r.Stopped, context.Canceled):
		log.Printf("%s", report.DashboardNotSeen)
	case r.WriteRefused() != nil:
		log.Printf("%s", report.DashboardRefused)
	default:
		_, err = dashboard.Update(ctx, client, dashboard.Options{
			Title: cfg.DashboardIssue, DryRun: cfg.DebugOnly, Self: r.Self, Now: r.Now,
		}, report.Dashboard(r), log)
	}
	u := client.Usage()
	r.Requests, r.Writes, r.ByRoute = u.Requests, u.Writes, u.ByRoute
	r.RateLimit, r.RateRemaining = u.RateLimit, u.RateRemaining
	return r, err
}
