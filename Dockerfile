# stalepr container images. The default (last) target, "action", is the image
# GitHub builds for `runs: using: docker, image: Dockerfile` (action.yml) and the
# one .github/workflows/release.yml publishes to ghcr.io; `--target runtime` is
# the same image running as the non-root user, for use outside GitHub Actions.
#
# Both base images are pinned by the digest of their multi-platform index; the
# tag beside each digest only says what it is. Dependabot (.github/dependabot.yml,
# docker ecosystem) keeps tag and digest current with reviewable pull requests.

# ---- build -------------------------------------------------------------------
# The builder runs on the build machine's platform and cross-compiles for the
# target, so a linux/arm64 image needs no emulated compiler.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm@sha256:dc9ad6c05acc7a88e5b71bde60a5fe3bd4b9f0db209011711b464107438a8107 AS build
WORKDIR /src

# Modules first, in a layer of their own: a source edit does not download them again.
COPY go.mod go.sum ./
RUN go mod download && go mod verify

COPY . .
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
# repo_docker_test.go builds the binary with this line's flags and checks the result.
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /stalepr .

# ---- runtime -----------------------------------------------------------------
# distroless static: CA certificates, tzdata and /etc/passwd, no shell, no
# package manager. The binary is the only file added.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab AS runtime
ARG VERSION=dev
LABEL org.opencontainers.image.source="https://github.com/stalepr/stalepr" \
      org.opencontainers.image.title="stalepr" \
      org.opencontainers.image.description="GitHub Action that marks, un-stales and closes stale pull requests" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}"
COPY --from=build /stalepr /stalepr
USER nonroot:nonroot
ENTRYPOINT ["/stalepr"]

# ---- action (default target) -------------------------------------------------
# The runner creates $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY (/github/file_commands)
# as its own user with mode 0644. On GitHub-hosted runners that user is uid 1001:
# running as 1001 keeps the action non-root while it can still write its outputs
# and job summary (distroless' uid 65532 gets "permission denied").
FROM runtime AS action
USER 1001:1001
