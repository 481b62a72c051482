import Wire

/// Golden vectors of docs/PROTOCOL.md for favorite movies (section 5.6).
enum MovieVectors {
    static func cases() -> [(String, Frame)] {
        let casablanca = MovieInfo(title: "Casablanca", genre: "Drama", sales: 10_462_500)
        let up = MovieInfo(title: "Up", genre: "Animation", sales: 735_099_082)
        return [
            ("add-movie", Frame(AddMovie(movie: casablanca), requestID: 11)),
            ("movie-result", Frame(MovieResult(movie: casablanca), requestID: 11)),
            ("find-movie", Frame(FindMovie(title: "casablanca"), requestID: 12)),
            ("set-movie-sales", Frame(SetMovieSales(title: "Casablanca", sales: 10_500_000), requestID: 13)),
            ("delete-movie", Frame(DeleteMovie(title: "Casablanca"), requestID: 14)),
            (
                "update-movie",
                Frame(
                    UpdateMovie(
                        title: "casablanca",
                        movie: MovieInfo(
                            title: "Casablanca (1942)", genre: "Romance",
                            sales: 10_462_500)), requestID: 17)
            ),
            ("list-movies", Frame(ListMovies(), requestID: 15)),
            ("movies", Frame(Movies(movies: [casablanca, up]), requestID: 15)),
            (
                "error-movie-exists",
                Frame(
                    ErrorMessage(code: .alreadyExists, message: "you already have a movie titled \"Casablanca\""),
                    requestID: 16)
            ),
        ]
    }
}
