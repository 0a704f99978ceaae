import Foundation
import PickupTestSupport
import Testing

/// What a newcomer's shell hands the tool by mistake, through the built `pickup`: each slip is an
/// error that says what to type instead, never a silent success.
@Suite("argument slips, end to end")
struct ArgumentSlipTests {
    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-slips")
        return folder
    }

    /// Runs `pickup ARGUMENTS` in `folder`, as a shell there would (a glob expanded by `sh`).
    func pickup(in folder: String, _ script: String) throws -> Shell.Result {
        try Shell.execute("/bin/sh", ["-c", "cd \"$1\" && \"$2\" " + script, "sh", folder, CLI.tool])
    }

    @Test("a glob that expands to a file named -dash.jpg is an error suggesting '--', not the help and exit 0")
    func dashFileFromAGlob() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: folder + "/-dash.jpg")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: folder + "/b.jpg")
        for command in ["probe", "thumb"] {
            let result = try pickup(in: folder, "\(command) *.jpg")
            #expect(result.status == 2, "\(command): \(result.outputText)")
            #expect(!result.outputText.contains("USAGE"))
            #expect(result.errorText.contains("'-dash.jpg' is a file's name, not an option"), "\(result.errorText)")
            #expect(result.errorText.contains("pickup \(command) -- *.jpg"), "\(result.errorText)")
        }
        let separated = try pickup(in: folder, "probe -- *.jpg")
        #expect(separated.status == 0, "\(separated.errorText)")
        #expect(separated.outputText.contains("-dash.jpg") && separated.outputText.contains("b.jpg"))
        // A name with a dot that no option has, even when no such file exists.
        let missing = try pickup(in: folder, "probe -other.mov")
        #expect(missing.status == 2 && missing.errorText.contains("./-other.mov"), "\(missing.errorText)")
    }

    @Test(
        "an unknown option is said to be unknown, not hidden by a missing argument or another error",
        arguments: [
            (["probe", "--nosuch"], "'--nosuch' is not an option of 'pickup probe'"),
            (["probe", "--nosuch", "x.jpg"], "'--nosuch' is not an option of 'pickup probe'"),
            (["uploads", "cancel", "--nosuch"], "'--nosuch' is not an option of 'pickup uploads cancel'"),
            (["upload", "x.jpg", "--to", "s3://b/", "--nosuch"], "'--nosuch' is not an option of 'pickup upload'"),
            (["probe", "-rz", "x.jpg"], "'-z' (in '-rz') is not an option of 'pickup probe'"),
            (["thumb", "--nosuch", "x.jpg"], "'--nosuch' is not an option of 'pickup thumb'"),
        ])
    func unknownOption(arguments: [String], said: String) throws {
        let result = try CLI.run(arguments, environment: ["HOME": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.errorText.contains(said), "\(result.errorText)")
        #expect(!result.errorText.contains("Missing expected argument"), "\(result.errorText)")
        if arguments.first == "probe" {
            #expect(result.errorText.contains("put '--' before the names (pickup probe -- -name.jpg)"))
        }
        if arguments.first == "uploads" {
            #expect(!result.errorText.contains("file's name"), "an upload's id is no file: \(result.errorText)")
        }
    }

    @Test(
        "a slip of a command's or option's name gets the nearest one suggested, and exits 2 with nothing done",
        arguments: [
            (["prob", "x.jpg"], "'prob' is not a command of 'pickup'; did you mean 'probe'?"),
            (["uploads", "lsit"], "'lsit' is not a command of 'pickup uploads'; did you mean 'list'?"),
            (["thumbnails", "card"], "'thumbnails' is not a command of 'pickup'; did you mean 'thumb'?"),
            (["probe", "x.jpg", "--fields", "path,knd"], "no field 'knd' (did you mean 'kind'?)"),
            (
                ["upload", "--library", "lib", "--to", "tus+http://127.0.0.1:9/"],
                "name the items of --library lib to upload by their ids ('pickup library lib list' shows them)"
            ),
            (
                ["probe", "--fromat", "csv", "x.jpg"],
                "'--fromat' is not an option of 'pickup probe'; did you mean '--format'?"
            ),
            (["upload", "x.jpg", "--to", "s3://b/", "--paralel", "2"], "did you mean '--parallel'?"),
            (["--verison"], "'--verison' is not an option of 'pickup'; did you mean '--version'?"),
            (["thumb", "-size", "64", "x.jpg"], "did you mean '--size'?"),
            (["frobnicate"], "'frobnicate' is not a command of 'pickup'. See 'pickup --help' for its commands."),
            (["uploadz"], "did you mean 'upload' or 'uploads'?"),
            (["thumb", "--fil", "2", "x.jpg"], "did you mean '--fill' or '--fit'?"),
            (["thumb", "--format", "xyz", "x.jpg"], "--format takes jpeg, png or webp, not 'xyz'"),
            // A value that looks like a slip of one the option takes.
            (["probe", "--format", "cvs", "x.jpg"], "not 'cvs' (did you mean 'csv'?)"),
            (["import", "x", "--into", "L", "--layout", "dated"], "not 'dated' (did you mean 'date'?)"),
            (["import", "x", "--into", "L", "--order", "newst"], "(did you mean 'newest'?)"),
            (["import", "x", "--into", "L", "--filter", "imgaes"], "unknown filter 'imgaes' (did you mean 'images'?)"),
            (["export", "x.mp4", "--preset", "1920x1800"], "no preset '1920x1800' (did you mean '1920x1080'?)"),
            (["library", "L", "lst"], "not 'lst' (did you mean 'list'?)"),
            (["library", "L", "list", "--sort", "tkaen"], "(did you mean 'taken'?)"),
            (["uploads", "list", "--state", "faild"], "(did you mean 'failed'?)"),
            // help of a command that is not there: an error, not the tool's help and exit 0.
            (["help", "prob"], "'prob' is not a command of 'pickup'; did you mean 'probe'?"),
            (["help", "uploads", "lsit"], "did you mean 'list'?"),
        ])
    func suggestion(arguments: [String], said: String) throws {
        let result = try CLI.run(arguments, environment: ["HOME": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.errorText.contains(said), "\(result.errorText)")
        #expect(result.outputText.isEmpty, "\(result.outputText)")
    }

    @Test("a negative number after an option reaches the option, which says what it takes")
    func negativeValues() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let limit = try CLI.run(["import", try Fixtures.path(.jpegPlain), "--into", folder + "/L", "--limit", "-1"])
        #expect(limit.status == 2)
        #expect(!limit.errorText.contains("Missing value"), "\(limit.errorText)")
        #expect(limit.errorText.contains("--limit takes a whole number, 0 or more"), "\(limit.errorText)")
        let at = try CLI.run(["thumb", try Fixtures.path(.mp4BlackStart), "--at", "-1", "-o", folder])
        #expect(at.status == 2)
        #expect(!at.errorText.contains("Missing value"), "\(at.errorText)")
        #expect(at.errorText.contains("--at -1: a time counts from the start"), "\(at.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/L"))
    }

    @Test(
        "a size out of its range says which way it is wrong, exit 2, and never crashes (a side of 10 digits overflowed)",
        arguments: [
            (["thumb", "--size", "0x0"], "--size 0x0: each side is 1 pixel or more"),
            (["thumb", "--size", "-5x5"], "--size -5x5: each side is 1 pixel or more"),
            (["thumb", "--size", "100x"], "--size 100x: give the size in pixels as WxH"),
            (["thumb", "--size", "9999999999x9999999999"], "--size 9999999999x9999999999: at most 64 million pixels"),
            (["thumb", "--at", "150%"], "--at 150%: a share of the video is 0% to 100%"),
            // Swift's Double reads hexadecimal: 0x10 was 16 s.
            (["thumb", "--at", "0x10"], "--at 0x10: give seconds (12.5)"),
            (
                ["import", "--thumbnails", "9999999999x9999999999"],
                "--thumbnails 9999999999x9999999999: at most 16 million"
            ),
        ])
    func sizesOutOfRange(flags: [String], said: String) throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let into = flags[0] == "import" ? ["--into", folder + "/L"] : ["-o", folder + "/out.jpg"]
        let result = try CLI.run([flags[0], try Fixtures.path(.jpegPlain)] + Array(flags.dropFirst()) + into)
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains(said), "\(result.errorText)")
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/L")
                && !FileManager.default.fileExists(atPath: folder + "/out.jpg"))
    }

    @Test(
        "a number out of its option's range is refused in its own words (decimals as typed), exit 2, nothing sent",
        arguments: [
            (["--chunk-size", "0.01"], "--chunk-size takes megabytes from 0.0625 to 1024"),
            (["--timeout", "0.5"], "--timeout takes seconds from 1 to 3600"),
            // Digits only: Double alone reads 0x10 as 16 and 1e3 as 1000.
            (["--chunk-size", "0x10"], "The value '0x10' is invalid for '--chunk-size <MB>'"),
            (["--timeout", "1e3"], "The value '1e3' is invalid for '--timeout <SECONDS>'"),
            (["--retries", "101"], "--retries takes a whole number from 0 to 100"),
            (["--part-concurrency", "0"], "--part-concurrency takes a whole number from 1 to 64"),
            (["--parallel", "33"], "--parallel takes a whole number from 1 to 32"),
            (
                ["--to", "s3://bucket/photos/", "--multipart-threshold", "5121"],
                "--multipart-threshold takes megabytes from 0 to 5120 (S3's largest PUT: 5 GiB)"
            ),
        ])
    func numbersOutOfRange(flags: [String], said: String) throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let target = flags.contains("--to") ? [] : ["--to", "tus+http://127.0.0.1:9/files/"]
        let result = try CLI.run(
            ["upload", try Fixtures.path(.jpegPlain), "--journal", folder + "/j.sqlite"] + target + flags,
            environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_REGION": "us-east-1"])
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains(said), "\(result.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/j.sqlite"), "no journal made for a mistake")
    }

    @Test(
        "S3 without credentials is a usage mistake (exit 2) that names every place they are looked for; nothing is sent"
    )
    func s3WithoutCredentials() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run(
            [
                "upload", try Fixtures.path(.jpegPlain), "--to", "s3://bucket/photos/", "--journal",
                folder + "/j.sqlite",
            ],
            environment: ["HOME": folder, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_PROFILE": ""])
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains("no S3 credentials: set AWS_ACCESS_KEY_ID"), "\(result.errorText)")
        #expect(result.errorText.contains("~/.aws/credentials") && result.errorText.contains("--credentials FILE"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/j.sqlite"), "no journal made for a mistake")
    }

    @Test("'pickup' alone is a usage mistake; --version is listed and answers after a command too")
    func bareToolAndVersion() throws {
        let bare = try CLI.run([])
        #expect(bare.status == 2)
        #expect(bare.errorText.contains("USAGE: pickup [--version] <subcommand>"))
        #expect(bare.errorText.contains("name a command"))
        #expect(try CLI.run(["help", "help"]).status == 0, "help of help is help")
        let help = try CLI.run(["--help"])
        #expect(help.outputText.contains("--version"))
        let version = try CLI.run(["probe", "--version"])
        #expect(version.status == 0, "\(version.errorText)")
        #expect(version.outputText.hasPrefix("pickup 0."), "\(version.outputText)")
        #expect(!version.errorText.contains("name"))
    }
}
