# stalepr container images. The default (last) target, "action", is the image
# GitHub builds for `runs: using: docker, image: Dockerfile` (action.yml on
# main) and the one .github/workflows/release.yml publishes to ghcr.io and pins
# by digest in the release's action.yml. `--target runtime` holds the same files
# and runs as distroless' non-root user, for use outside GitHub Actions.
#
# The base images are pinned by the digest of their multi-platform index; the
# tag beside each digest only says what it is. Dependabot (.github/dependabot.yml,
# docker ecosystem) keeps tag and digest current with reviewable pull requests.

# ---- build -------------------------------------------------------------------
# The builder runs on the build machine's platform and cross-compiles for the
# target, so a linux/arm64 image needs no emulated compiler.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm@sha256:dc9ad6c05acc7a88e5b71bde60a5fe3bd4b9f0db209011711b464107438a8107 AS build
WORKDIR /src

# No `go mod download`: it fetches every module go.mod lists, the test-only ones
# too (kin-openapi, patternmatcher, ...). go build below fetches exactly the modules
# of the packages it compiles (.dockerignore keeps the tests out of the context),
# and go.sum still verifies each of them.
COPY . .
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
# repo_docker_test.go builds the binary with this line's flags and checks the result.
# -tags release leaves out the sandbox and its fake GitHub (internal/sandbox).
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -tags release -ldflags="-s -w -X main.version=${VERSION}" -o /stalepr .

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
# GitHub's contract for Docker actions: the container runs as the image's
# default user, root, so that it can write $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY
# and the workspace whatever uid the runner uses (no USER here: GitHub's docs
# say not to set one). The stage starts from scratch and copies the runtime
# stage's files, so it runs as root with the very same files and needs no
# second base image to pin; image config (labels, entrypoint) is not copied,
# so it is repeated.
FROM scratch AS action
ARG VERSION=dev
COPY --from=runtime / /
LABEL org.opencontainers.image.source="https://github.com/stalepr/stalepr" \
      org.opencontainers.image.title="stalepr" \
      org.opencontainers.image.description="GitHub Action that marks, un-stales and closes stale pull requests" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}"
ENTRYPOINT ["/stalepr"]
