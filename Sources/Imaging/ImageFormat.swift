/// The image file formats Snapshare accepts.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case png
    case jpeg

    /// The media type a server can send with the bytes.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        }
    }
}
