/// Storage of pins, albums, photos and the saved map view (issue: pins and albums).
/// Implemented by `SQLiteStore` in `SQLiteStore+Pins.swift`.
public protocol PinStore: AnyObject {
}
