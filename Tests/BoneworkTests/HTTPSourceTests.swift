import BoneworkAssets
import BoneworkTestSupport
import Foundation
import Testing

@testable import Bonework

/// A local HTTP server (python3) serving a folder on 127.0.0.1; `/truncated/NAME` answers with a
/// Content-Length larger than the body it sends, then closes the connection.
final class LocalHTTPServer {
    let process = Process()
    let port: Int

    init(root: String) throws {
        let script = """
            import http.server, socketserver, sys, os
            os.chdir(sys.argv[1])
            class Handler(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *a): pass
                def do_GET(self):
                    if self.path.startswith('/truncated/'):
                        body = open(self.path[len('/truncated/'):], 'rb').read()
                        self.send_response(200)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body[:len(body) // 3])
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    return super().do_GET()
            class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
                daemon_threads = True
            server = Server(('127.0.0.1', 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, root]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            throw BoneworkError.network(url: "127.0.0.1", message: "test server did not start")
        }
        self.port = port
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    deinit {
        // The server may not react to SIGTERM: end it with SIGKILL.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

@Suite(.serialized) struct HTTPSourceTests {
    static func serveDefaultCharacter() throws -> LocalHTTPServer {
        let dir = try TemporaryFiles.freshDirectory("http", prefix: "bonework-facade")
        for file in ["bonebot.atlas", "bonebot.json", "bonebot.png"] {
            try FileManager.default.copyItem(
                atPath: DefaultCharacter.directory.appendingPathComponent(file).path, toPath: dir + "/" + file)
        }
        return try LocalHTTPServer(root: dir)
    }

    @Test func loadsSkeletonAtlasAndPagesOverHTTP() async throws {
        let server = try Self.serveDefaultCharacter()
        let drawable = try await SkeletonDrawable.load(
            .http(atlasURL: server.url("bonebot.atlas"), skeletonURL: server.url("bonebot.json")), skin: "blue")
        #expect(drawable.skeletonData.bones.count > 10)
        let image = try drawable.renderToImage(size: Size(width: 48, height: 48))
        #expect(ImageMeasures.coverage(image.image) > 0.05, "the page image came over HTTP too")
        // A second load of the same URLs shares the data.
        let again = try await SkeletonDrawable.load(
            .http(atlasURL: server.url("bonebot.atlas"), skeletonURL: server.url("bonebot.json")))
        #expect(again.skeletonData === drawable.skeletonData)
    }

    @Test func notFoundIsAClearError() async throws {
        let server = try Self.serveDefaultCharacter()
        await #expect(throws: BoneworkError.httpStatus(url: server.url("missing.json").absoluteString, status: 404)) {
            _ = try await SkeletonDrawable.load(
                .http(atlasURL: server.url("bonebot.atlas"), skeletonURL: server.url("missing.json")))
        }
    }

    @Test func truncatedResponseIsAClearError() async throws {
        let server = try Self.serveDefaultCharacter()
        do {
            _ = try await SkeletonDrawable.load(
                .http(atlasURL: server.url("bonebot.atlas"), skeletonURL: server.url("truncated/bonebot.json")))
            Issue.record("a truncated skeleton loaded")
        } catch let error as BoneworkError {
            guard case .truncated(let url, _, _) = error else {
                Issue.record("expected .truncated, got \(error)")
                return
            }
            #expect(url.hasSuffix("truncated/bonebot.json"))
            #expect(error.description.hasPrefix("truncated response for http://127.0.0.1:"))
        }
    }

    @Test func refusedConnectionIsANetworkError() async throws {
        // Port 9 (discard) is closed on the loopback interface here.
        await #expect(throws: BoneworkError.self) {
            _ = try await SkeletonDrawable.load(
                .http(
                    atlasURL: URL(string: "http://127.0.0.1:9/a.atlas")!,
                    skeletonURL: URL(string: "http://127.0.0.1:9/a.json")!))
        }
    }
}
