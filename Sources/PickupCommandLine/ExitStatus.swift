/// Exit statuses shared by every command.
public enum ExitStatus {
    /// Everything was done.
    public static let success: Int32 = 0
    /// Some items failed; the others were done.
    public static let someFailed: Int32 = 1
    /// The command was called wrongly.
    public static let usage: Int32 = 2
}
