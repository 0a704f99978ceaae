import ArgumentParser
import PickupCommandLine

extension UploadsCommand {
    /// `pickup uploads cancel ID`.
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark an upload cancelled, and end it on the server (a tus upload, an S3 multipart upload).")

        @Argument(help: ArgumentHelp("The upload's id.", valueName: "ID"))
        var id: String

        @OptionGroup var s3: S3CredentialOptions

        @OptionGroup var shared: JournalOptions

        @OptionGroup var trust: TrustOptions

        func run() async throws {
            try finish(await UploadsJob(.cancel(id), shared, s3: s3, caFile: trust.caFile).run())
        }
    }
}
