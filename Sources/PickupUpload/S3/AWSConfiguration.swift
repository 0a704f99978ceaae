import Foundation

/// S3 settings found the way the AWS CLI finds them: the environment first
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`,
/// `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`), then the profile
/// (`AWS_PROFILE`, else `default`) of `~/.aws/credentials` and `~/.aws/config` (or
/// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE`).
public struct AWSConfiguration: Sendable {
    /// The keys found (nil: none, so requests cannot be signed).
    public var credentials: S3Credentials?
    /// The store's address when one was set (`endpoint_url`, `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`).
    public var endpoint: URL?
    /// The region requests are signed for.
    public var region: String
    /// The profile read, and the files it came from (for messages).
    public var profile: String
    /// The files the settings came from.
    public var sources: [String]

    /// Whether `region` is a name the AWS CLI takes (botocore's `validate_region_name`): one
    /// DNS label of letters, digits and hyphens, at most 63, not all digits, no hyphen at
    /// either end. Only such a name is put into a host name (`s3.REGION.amazonaws.com`): one
    /// like `x@127.0.0.1:8080/` would send signed requests somewhere else.
    public static func isValidRegion(_ region: String) -> Bool {
        let bytes = Array(region.utf8)
        guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-")
        else { return false }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard !bytes.allSatisfy({ digits.contains($0) }) else { return false }
        return bytes.allSatisfy { byte in
            digits.contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    /// AWS's own S3 endpoint for `region`; nil for a name the AWS CLI refuses.
    public static func awsEndpoint(region: String) -> URL? {
        guard isValidRegion(region) else { return nil }
        return URL(string: "https://s3.\(region).amazonaws.com")
    }

    /// Reads the environment and the two files. A file that is missing is skipped; `profile`
    /// overrides `AWS_PROFILE`.
    public static func load(
        profile chosen: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AWSConfiguration {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let profile = chosen ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let credentialsPath = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        let configPath = environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        // In the config file every profile but `default` is `[profile NAME]`.
        let fromCredentials = section(profile, in: credentialsPath)
        let fromConfig =
            section(profile == "default" ? "default" : "profile " + profile, in: configPath)
        var sources: [String] = []
        if !fromCredentials.isEmpty { sources.append(credentialsPath) }
        if !fromConfig.isEmpty { sources.append(configPath) }
        let value = { (environmentName: String?, key: String) -> String? in
            if let environmentName, let found = environment[environmentName], !found.isEmpty { return found }
            return fromCredentials[key] ?? fromConfig[key]
        }
        let region =
            value("AWS_REGION", "region") ?? environment["AWS_DEFAULT_REGION"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "us-east-1"
        let endpoint =
            (environment["AWS_ENDPOINT_URL_S3"].flatMap { $0.isEmpty ? nil : $0 }
            ?? value("AWS_ENDPOINT_URL", "endpoint_url")).flatMap { URL(string: $0) }
        var credentials: S3Credentials?
        // Keys from the environment go together; a profile's keys go together: never one of each.
        if let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"],
            !secret.isEmpty
        {
            credentials = S3Credentials(
                accessKey: key, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"], region: region)
        } else if let key = fromCredentials["aws_access_key_id"] ?? fromConfig["aws_access_key_id"],
            let secret = fromCredentials["aws_secret_access_key"] ?? fromConfig["aws_secret_access_key"]
        {
            credentials = S3Credentials(
                accessKey: key, secretKey: secret,
                sessionToken: fromCredentials["aws_session_token"] ?? fromConfig["aws_session_token"], region: region)
        }
        return AWSConfiguration(
            credentials: credentials, endpoint: endpoint, region: region, profile: profile, sources: sources)
    }

    /// The `key = value` lines of one `[name]` section of an INI file (keys lowercased); empty
    /// when the file or the section is missing.
    static func section(_ name: String, in path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        var inside = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                inside = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == name
                continue
            }
            guard inside, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            // A nested block (`s3 =` then indented lines) has no value of its own.
            if !value.isEmpty { values[key] = value }
        }
        return values
    }
}
