# syntax=docker/dockerfile:1
# aepgate as a small static image, for running the GitHub App:
#   docker build -t aepgate .
#   docker run -p 8080:8080 -e ... aepgate            # aepgate serve
#   docker run --rm aepgate lint --help               # any other subcommand
# The GitHub Action does not use this image: it runs the binary on the
# runner host (see action.yml).

FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/aepgate ./cmd/aepgate
# The embedded SQLite database lives in /data (mount a volume there).
RUN mkdir -p /out/data

# distroless static: CA certificates, /etc/passwd with nonroot (65532), no
# shell, no package manager.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/aepgate /usr/local/bin/aepgate
COPY --from=build --chown=65532:65532 /out/data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
ENV AEPGATE_DATABASE=sqlite:/data/aepgate.db
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/aepgate"]
CMD ["serve"]
