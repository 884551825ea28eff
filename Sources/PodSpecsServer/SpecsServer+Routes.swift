import Hummingbird
import NIOCore
import PodDocJSON
import PodSpecs

// MARK: - Answering page requests

extension SpecsServer {
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let catalog = catalog
        let configuration = configuration
        router.get(RouterPath(configuration.path)) { request, _ -> Response in
            guard let raw = request.uri.queryParameters[Substring(configuration.pageParameter)] else {
                return SpecsServer.error(.badRequest, "Give the page number: \(configuration.path)?\(configuration.pageParameter)=0")
            }
            guard let page = Int(raw), page >= 0 else {
                return SpecsServer.error(
                    .badRequest, "The page number must be a whole number of 0 or more, not \(String(reflecting: String(raw))).")
            }
            let count = try await catalog.count()
            let pages = (count + configuration.pageSize - 1) / configuration.pageSize
            let (start, overflow) = page.multipliedReportingOverflow(by: configuration.pageSize)
            var body = ByteBuffer()
            body.writeString("{\"number_of_pages\":\(pages),\"result\":")
            if overflow || page >= pages {
                body.writeString("null}")
            } else {
                let texts = try await catalog.json(in: start..<min(count, start + configuration.pageSize))
                body.writeString("[")
                for (i, text) in texts.enumerated() {
                    if i > 0 { body.writeString(",") }
                    body.writeString(text)
                }
                body.writeString("]}")
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        return router
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var body = ByteBuffer()
        var text = "{\"error\":"
        JSONEscaping.appendQuoted(message, to: &text)
        text += "}"
        body.writeString(text)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
}
