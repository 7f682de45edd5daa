# syntax=docker/dockerfile:1
# The release image: GoReleaser (.goreleaser.yaml, dockers_v2) puts the
# binaries it built in the build context as <os>/<arch>/aepgate and
# <os>/<arch>/aepgate-app and builds this file once per platform. Dockerfile
# builds the same image from source. 'aepgate serve' becomes the
# aepgate-app beside it (the same process); the other commands and the
# health check stay in aepgate, which starts without the App's libraries.
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY ${TARGETPLATFORM}/aepgate /usr/local/bin/aepgate
COPY ${TARGETPLATFORM}/aepgate-app /usr/local/bin/aepgate-app
USER nonroot:nonroot
# The embedded SQLite database lives in /data (mount a volume there; the
# nonroot user owns its working directory).
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
