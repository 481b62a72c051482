import Foundation
import Wire

/// Favorite movies, kept on the server per user (docs/PROTOCOL.md 5.6).
extension SnapshareSession {
    /// Adds a movie; the reply is the record as the server stored it (trimmed).
    package func addMovie(_ movie: MovieInfo) throws(ClientError) -> MovieInfo {
        (try request(AddMovie(movie: movie)) as MovieResult).movie
    }

    /// Deletes the movie with this title (any case).
    package func deleteMovie(title: String) throws(ClientError) {
        let _: Ok = try request(DeleteMovie(title: title))
    }

    /// The movie with this title (any case); a `notFound` error when there is none.
    package func findMovie(title: String) throws(ClientError) -> MovieInfo {
        (try request(FindMovie(title: title)) as MovieResult).movie
    }

    /// Changes a movie's ticket sales and returns the changed record.
    package func setMovieSales(title: String, sales: UInt64) throws(ClientError) -> MovieInfo {
        (try request(SetMovieSales(title: title, sales: sales)) as MovieResult).movie
    }

    /// Replaces a movie's title, genre and sales; returns the changed record.
    func updateMovie(title: String, to movie: MovieInfo) throws(ClientError) -> MovieInfo {
        (try request(UpdateMovie(title: title, movie: movie)) as MovieResult).movie
    }

    /// The movies whose title contains `text` ignoring case: an exact title first, then the
    /// rest in list order.
    func searchMovies(_ text: String) throws(ClientError) -> [MovieInfo] {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        let matches = try movies().filter { $0.title.lowercased().contains(wanted) }
        return matches.filter { $0.title.lowercased() == wanted } + matches.filter { $0.title.lowercased() != wanted }
    }

    /// Every movie, ordered by title ignoring case.
    package func movies() throws(ClientError) -> [MovieInfo] {
        (try request(ListMovies()) as Movies).movies
    }
}
