import Foundation

/// The ten sample images shipped with the client, numbered 1-10.
enum SampleLibrary {
    struct Sample {
        let number: Int
        let name: String
        let url: URL
        func bytes() throws(ClientError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw ClientError(.local, "the bundled sample \(number) is missing from the installation (\(url.path))")
            }
            return [UInt8](data)
        }
    }

    /// Every sample, by number.
    static func all() throws(ClientError) -> [Sample] {
        guard let folder = ClientResources.url("Samples"),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else {
            throw ClientError(.local, "the bundled sample images are missing from the installation (looked in \(ClientResources.searched))")
        }
        return files.filter { $0.hasSuffix(".png") }.sorted().compactMap { file in
            // `01-astronaut.png` → 1, "astronaut"
            let stem = file.dropLast(4)
            guard let dash = stem.firstIndex(of: "-"), let number = Int(stem[..<dash]) else { return nil }
            return Sample(number: number, name: String(stem[stem.index(after: dash)...]), url: folder.appendingPathComponent(file))
        }
    }

    static func sample(numberText: String) throws(ClientError) -> Sample {
        let samples = try all()
        guard let number = Int(numberText), let sample = samples.first(where: { $0.number == number }) else {
            throw ClientError(.usage, "there is no sample '\(numberText)'; choose 1-\(samples.count) (see `snapshare samples`)")
        }
        return sample
    }
}
