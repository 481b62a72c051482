/// Storage of each user's favorite movies. Implemented by `SQLiteStore` in
/// `SQLiteStore+Movies.swift`.
public protocol MovieStore: AnyObject {
}
