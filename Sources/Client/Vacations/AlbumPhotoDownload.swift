import Imaging
import Wire

/// Fetches what a visit copies from the server: a photo of one of the user's albums, full
/// size and thumbnail, each checked against the SHA-256 the server sent.
enum AlbumPhotoDownload {
    /// The photo `photoID` as a vacation keeps it.
    static func fetch(photoID: UInt64, session: SnapshareSession) throws(ClientError) -> VisitedPhoto {
        let full = try image(photoID, .full, session)
        let thumbnail = try image(photoID, .thumbnail, session)
        let info = full.photo
        return VisitedPhoto(
            origin: session.settings.serverKey, photoID: photoID, title: info.title, place: info.place,
            tags: info.tags, latitude: info.latitude, longitude: info.longitude,
            width: Int(info.width), height: Int(info.height), image: full.image, thumbnail: thumbnail.image)
    }

    /// The session's checked photo, plus what a visit needs beyond it: a format the client can
    /// draw later.
    private static func image(_ photoID: UInt64, _ variant: PhotoVariant, _ session: SnapshareSession) throws(ClientError) -> PhotoImage {
        let reply = try session.photo(photoID, variant: variant)
        // Only images the client can draw later are kept.
        do { _ = try ImageHeader.parse(reply.image) } catch {
            throw ClientError(.integrity, "photo \(photoID) is not a PNG or JPEG image: \(error.description)")
        }
        return reply
    }
}
