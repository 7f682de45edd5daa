# syntax=docker/dockerfile:1
# aepgate as a small static image, for running the GitHub App (aepgate and
# aepgate-app, which 'aepgate serve' runs):
#   docker build --build-arg VERSION=v1.2.3 --build-arg REVISION=$(git rev-parse HEAD) -t aepgate .
#   docker run -p 8080:8080 -e ... aepgate            # aepgate serve
#   docker run --rm aepgate lint --help               # any other subcommand
# The GitHub Action does not use this image: it runs the binary on the
# runner host (see action.yml). Releases build their image with GoReleaser
# (.goreleaser.yaml) from the same distroless base.

FROM golang:1.26.8-bookworm AS build
WORKDIR /src
# BuildKit cache mounts keep the module and build caches between builds.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=bind,source=go.mod,target=go.mod \
    --mount=type=bind,source=go.sum,target=go.sum \
    go mod download
ARG VERSION=devel
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    --mount=type=bind,target=. \
    CGO_ENABLED=0 GOOS=linux go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/aepgate ./cmd/aepgate && \
    CGO_ENABLED=0 GOOS=linux go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/aepgate-app ./cmd/aepgate-app
# The embedded SQLite database lives in /data (mount a volume there).
RUN mkdir -p /out/data

# distroless static: CA certificates, /etc/passwd with nonroot (65532), no
# shell, no package manager.
FROM gcr.io/distroless/static-debian12:nonroot
ARG VERSION=devel
ARG REVISION=unknown
LABEL org.opencontainers.image.title="aepgate" \
      org.opencontainers.image.description="Enforces the Auditor/Executor delivery protocol: CLI, GitHub Action and GitHub App" \
      org.opencontainers.image.source="https://github.com/aepgate/aepgate" \
      org.opencontainers.image.url="https://github.com/aepgate/aepgate" \
      org.opencontainers.image.documentation="https://github.com/aepgate/aepgate/blob/main/docs/app.md" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
# 'aepgate serve' becomes the aepgate-app beside it (the same process).
COPY --from=build /out/aepgate /out/aepgate-app /usr/local/bin/
COPY --from=build --chown=65532:65532 /out/data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
ENV AEPGATE_DATABASE=sqlite:/data/aepgate.db
EXPOSE 8080
# No shell in the image: aepgate itself GETs /readyz (GitHub auth, database and
# queue up) on the port of AEPGATE_ADDR, the address serve listens on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/aepgate", "healthcheck", "--timeout", "3s"]
ENTRYPOINT ["/usr/local/bin/aepgate"]
CMD ["serve"]
