import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one command that uses the network: fetches CLINC150 from its public repository (or any
/// base URL, for tests and mirrors), checks SHA-256, and only then moves the files into place.
public enum DatasetFetch {
    public static func clinc150(base: String, folder: String, log: (String) -> Void) throws {
        let files = [("data_full.json", CLINC150.dataSHA256), ("domains.json", CLINC150.domainsSHA256)]
        var downloaded: [(String, Data)] = []
        for (name, expected) in files {
            let url = "\(base)/\(name)"
            log("fetching \(url)")
            let data = try download(url)
            let got = SHA256.hex(data)
            guard got == expected else {
                throw ThemeLabError.input("\(url): SHA-256 \(got) does not match the expected \(expected); nothing was written")
            }
            downloaded.append((name, data))
        }
        for (name, data) in downloaded { try AtomicFile.write(data, to: "\(folder)/\(name)") }
        log("wrote \(folder)/data_full.json and domains.json (checksums verified)")
    }

    static func download(_ url: String) throws -> Data {
        guard let u = URL(string: url) else { throw ThemeLabError.usage("not a URL: \(url)") }
        final class Box: @unchecked Sendable { var result: Result<Data, Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: u)
        request.timeoutInterval = 60
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error { box.result = .failure(ThemeLabError.input("\(url): \(error.localizedDescription)")) }
            else if let http = response as? HTTPURLResponse, http.statusCode != 200 { box.result = .failure(ThemeLabError.input("\(url): HTTP \(http.statusCode)")) }
            else { box.result = .success(data ?? Data()) }
            done.signal()
        }.resume()
        done.wait()
        return try box.result!.get()
    }
}
