/// One favorite-movie record.
public struct MovieInfo: Sendable, Equatable, ListedRecord {
    public var title: String
    public var genre: String
    /// Ticket sales in whole dollars.
    public var sales: UInt64
    public init(title: String, genre: String, sales: UInt64) {
        self.title = title
        self.genre = genre
        self.sales = sales
    }

    static let smallest = MovieInfo(title: "", genre: "", sales: 0)

    init(from r: inout ByteReader) throws(WireError) {
        title = try r.readString("movie.title", maxBytes: FieldLimits.movieTitle)
        genre = try r.readString("movie.genre", maxBytes: FieldLimits.movieGenre)
        sales = try r.readUInt64("movie.sales")
    }

    func encode(into w: inout ByteWriter) {
        w.write(title)
        w.write(genre)
        w.write(sales)
    }
}

/// Client → server: add a movie (titles are unique per user, case-insensitively).
public struct AddMovie: WireMessage, Equatable {
    public static let type = MessageType.addMovie
    public var movie: MovieInfo
    public init(movie: MovieInfo) { self.movie = movie }
    public init(from r: inout ByteReader) throws(WireError) { movie = try MovieInfo(from: &r) }
    public func encode(into w: inout ByteWriter) { movie.encode(into: &w) }
}

/// Server → client: one movie.
public struct MovieResult: WireMessage, Equatable {
    public static let type = MessageType.movie
    public var movie: MovieInfo
    public init(movie: MovieInfo) { self.movie = movie }
    public init(from r: inout ByteReader) throws(WireError) { movie = try MovieInfo(from: &r) }
    public func encode(into w: inout ByteWriter) { movie.encode(into: &w) }
}

/// Client → server: delete a movie by title (case-insensitive).
public struct DeleteMovie: WireMessage, Equatable {
    public static let type = MessageType.deleteMovie
    public var title: String
    public init(title: String) { self.title = title }
    public init(from r: inout ByteReader) throws(WireError) { title = try r.readString("title", maxBytes: FieldLimits.movieTitle) }
    public func encode(into w: inout ByteWriter) { w.write(title) }
}

/// Client → server: find a movie by title (case-insensitive); NOT_FOUND when absent.
public struct FindMovie: WireMessage, Equatable {
    public static let type = MessageType.findMovie
    public var title: String
    public init(title: String) { self.title = title }
    public init(from r: inout ByteReader) throws(WireError) { title = try r.readString("title", maxBytes: FieldLimits.movieTitle) }
    public func encode(into w: inout ByteWriter) { w.write(title) }
}

/// Client → server: change a movie's ticket sales.
public struct SetMovieSales: WireMessage, Equatable {
    public static let type = MessageType.setMovieSales
    public var title: String
    public var sales: UInt64
    public init(title: String, sales: UInt64) {
        self.title = title
        self.sales = sales
    }
    public init(from r: inout ByteReader) throws(WireError) {
        title = try r.readString("title", maxBytes: FieldLimits.movieTitle)
        sales = try r.readUInt64("sales")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(title)
        w.write(sales)
    }
}

/// Client → server: replace a movie's title, genre and ticket sales at once (the title found
/// in any case; the new one must not be another of the user's titles). Answered by MovieResult.
public struct UpdateMovie: WireMessage, Equatable {
    public static let type = MessageType.updateMovie
    public var title: String
    public var movie: MovieInfo
    public init(title: String, movie: MovieInfo) {
        self.title = title
        self.movie = movie
    }
    public init(from r: inout ByteReader) throws(WireError) {
        title = try r.readString("title", maxBytes: FieldLimits.movieTitle)
        movie = try MovieInfo(from: &r)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(title)
        movie.encode(into: &w)
    }
}

/// Client → server: every movie of the requester.
public struct ListMovies: EmptyWireMessage, Equatable {
    public static let type = MessageType.listMovies
    public init() {}
}

/// Server → client: movies ordered by title, case-insensitive.
public struct Movies: WireMessage, Equatable {
    public static let type = MessageType.movies
    public var movies: [MovieInfo]
    public init(movies: [MovieInfo]) { self.movies = movies }
    public init(from r: inout ByteReader) throws(WireError) {
        movies = try r.readRecords("movies", of: MovieInfo.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(movies) }
}
