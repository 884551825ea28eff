/// An author of a pod: a name and, when given, an email address.
public struct PodAuthor: Sendable, Hashable, Codable {
    /// The author's name (or team name).
    public var name: String
    /// The email address; nil when the spec gives none (or an empty one).
    public var email: String?

    /// Makes an author.
    public init(name: String, email: String? = nil) {
        self.name = name
        self.email = email
    }
}

/// A pod's license: its type, and the file or text holding it.
public struct PodLicense: Sendable, Hashable {
    /// The license type, e.g. `MIT`.
    public var type: String?
    /// The license file in the pod's source, if named.
    public var file: String?
    /// The license text, if given inline.
    public var text: String?

    /// Makes a license.
    public init(type: String?, file: String? = nil, text: String? = nil) {
        self.type = type
        self.file = file
        self.text = text
    }
}

/// Where a pod's code comes from.
public struct PodSource: Sendable, Hashable {
    /// The kind of source.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A git repository (with a tag, commit or branch).
        case git
        /// An archive to download.
        case http
        /// A Subversion repository (with a tag or revision).
        case svn
        /// A Mercurial repository (with a revision).
        case hg
    }

    /// The kind of source.
    public var kind: Kind
    /// The repository or archive URL.
    public var url: String
    /// The tag (git, svn).
    public var tag: String?
    /// The commit (git) or revision (svn, hg).
    public var commit: String?
    /// The branch (git).
    public var branch: String?

    /// Makes a source.
    public init(kind: Kind, url: String, tag: String? = nil, commit: String? = nil, branch: String? = nil) {
        self.kind = kind
        self.url = url
        self.tag = tag
        self.commit = commit
        self.branch = branch
    }
}

/// A platform a pod supports, with its deployment target when the spec gives one.
public struct PodPlatform: Sendable, Hashable, Codable {
    /// The platform name: `ios`, `osx`, `tvos`, `watchos`, `visionos`.
    public var name: String
    /// The lowest OS version, as written; nil when the spec leaves it open (`null`).
    public var deploymentTarget: String?

    /// Makes a platform.
    public init(name: String, deploymentTarget: String? = nil) {
        self.name = name
        self.deploymentTarget = deploymentTarget
    }
}
