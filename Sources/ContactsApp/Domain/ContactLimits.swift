/// Limits the app and its front ends share, named once.
public enum ContactLimits {
    /// Largest page of the list a person or client may ask for: a page is read whole into memory.
    public static let maximumPageSize = 500
}
