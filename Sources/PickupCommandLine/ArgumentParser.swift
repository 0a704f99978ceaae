/// The arguments of one command call, parsed against its ``CommandSpec``.
public struct ParsedArguments {
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []

    /// Whether a flag was given, by its long name.
    public func has(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option, by its long name.
    public func value(_ name: String) -> String? { values[name]?.last }
}

/// Parses `--flag`, `--option VALUE`, `--option=VALUE`, short spellings and `--`.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.allOptions.first(where: { $0.names.contains(name) }) else {
                throw UsageError(message: "unknown option '\(name)' for 'pickup \(spec.name)'", command: spec.name)
            }
            let key = option.names[0]
            if option.isFlag {
                guard inlineValue == nil else {
                    throw UsageError(message: "option '\(name)' takes no value", command: spec.name)
                }
                parsed.flags.insert(key)
            } else {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(
                            message: "option '\(name)' needs a value (\(option.value ?? "VALUE"))", command: spec.name)
                    }
                    value = arguments[index]
                    index += 1
                }
                parsed.values[key, default: []].append(value)
            }
        }
        return parsed
    }
}
