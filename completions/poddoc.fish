function __poddoc_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __poddoc_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __poddoc_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __poddoc_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __poddoc_parse_tokens -S
    set -l unparsed_tokens (__poddoc_tokens -pc)
    switch $unparsed_tokens[1]
    case 'poddoc'
        __poddoc_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'new'
            __poddoc_parse_subcommand 1 'kind=' 'from=' 'json' 'q/quiet' 'version' 'h/help'
        case 'open'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'autosave-interval=' 'c=' 'read-only' 'json' 'q/quiet' 'version' 'h/help'
        case 'info'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'read-only' 'json' 'q/quiet' 'version' 'h/help'
        case 'versions'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'read-only' 'last=' 'json' 'q/quiet' 'version' 'h/help'
        case 'diff'
            __poddoc_parse_subcommand 2 'recover' 'discard' 'read-only' 'from=' 'to=' 'exit-code' 'json' 'q/quiet' 'version' 'h/help'
        case 'import'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'from=' 'resume' 'opml=' 'markdown=' 'text=' 'outline-json=' 'under=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
        case 'export'
            __poddoc_parse_subcommand 2 'recover' 'discard' 'format=' 'force' 'at=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
        case 'save'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'as=' 'format=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
        case 'revert'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'to=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
        case 'merge'
            __poddoc_parse_subcommand 2 'recover' 'discard' 'prefer=' 'two-way' 'base=' 'remove-copy' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
        case 'check'
            __poddoc_parse_subcommand 1 'recover' 'discard' 'read-only' 'json' 'q/quiet' 'version' 'h/help'
        case 'recover'
            __poddoc_parse_subcommand 1 'discard' 'keep-mine' 'as=' 'json' 'q/quiet' 'version' 'h/help'
        case 'serve'
            __poddoc_parse_subcommand 1 'host=' 'port=' 'page-size=' 'json' 'q/quiet' 'version' 'h/help'
        case 'outline'
            __poddoc_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'tree'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'depth=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'find'
                __poddoc_parse_subcommand -r 2 'recover' 'discard' 'open' 'done' 'limit=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'add'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'under=' 'at=' 'note=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'insert'
                __poddoc_parse_subcommand 3 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'mv'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'under=' 'at=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'rename'
                __poddoc_parse_subcommand 3 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'note'
                __poddoc_parse_subcommand 3 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'done'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'undone'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'indent'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'outdent'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'rm'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            end
        case 'pods'
            __poddoc_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'swift=' 'limit=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'search'
                __poddoc_parse_subcommand -r 2 'recover' 'discard' 'limit=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'show'
                __poddoc_parse_subcommand 3 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'count'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            end
        case 'objects'
            __poddoc_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'ls'
                __poddoc_parse_subcommand 2 'recover' 'discard' 'limit=' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            case 'show'
                __poddoc_parse_subcommand 3 'recover' 'discard' 'json' 'q/quiet' 'read-only' 'version' 'h/help'
            end
        case 'git-setup'
            __poddoc_parse_subcommand 0 'pattern=+' 'global' 'remove' 'json' 'q/quiet' 'version' 'h/help'
        case 'merge-driver'
            __poddoc_parse_subcommand 4 'prefer=' 'version' 'h/help'
        case 'textconv'
            __poddoc_parse_subcommand 1 'version' 'h/help'
        case 'crash-test'
            __poddoc_parse_subcommand 0 'cycles=' 'kind=' 'from=' 'format=' 'seed=' 'autosave-interval=' 'specs=' 'work-folder=' 'force' 'json' 'q/quiet' 'version' 'h/help'
        case 'help'
            __poddoc_parse_subcommand -r 1 'version'
        end
    end
end

function __poddoc_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __poddoc_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __poddoc_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __poddoc_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__poddoc_tokens -p)
    if test -z "$(__poddoc_tokens -t)"
        set -l index (count (__poddoc_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'poddoc' -f
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'new' -d 'Create an empty document: a package, or an archive when the name ends in .tar.zst, .zip or .tar.gz.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'open' -d 'Open a document in an interactive shell, with undo and autosave.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'info' -d 'Describe a document: kind, format, counts, sizes, last save, lock holder, work waiting for recovery.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'versions' -d 'List a document\'s saves, newest first: number, time, host, who, what was done and what changed.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'diff' -d 'Show what changed between two copies of a document, or one document at two saves.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'import' -d 'Import specs (--from URL|FOLDER|FILE) or an outline file (--opml, --markdown, --text, --outline-json).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'export' -d 'Export: archive or objects (any document); json, csv, specs (pods); opml, markdown, text, json (outline).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'save' -d 'Save; with --as, save to a new place (package or archive) and continue there.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'revert' -d 'Go back to save N (--to N; poddoc versions lists them) as a new save that can be undone; in the shell, revert alone drops unsaved changes.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'merge' -d 'Merge the changes of another copy of the document that this one has not seen, as one save; conflicts are listed and nothing changes (exit 75) unless --prefer resolves them.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'check' -d 'Check a document: archive entries and manifest, SQLite integrity, the store\'s hash and the additional content against the metadata.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'recover' -d 'List autosaved work waiting for recovery, or recover (or --discard) the work of one archive document.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'serve' -d 'Serve specs over HTTP (GET /specs?page=N) from a pods document, a Specs folder or a page file.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'outline' -d 'Read and edit an outline document, one operation per command.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'pods' -d 'Query a pods document, one operation per command.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'objects' -d 'Read the objects of any document, whatever its kind, with the model its store records.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'git-setup' -d 'Make poddoc git\'s merge driver and diff driver for poddoc archives in this repository (or, with --global, for you).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'merge-driver' -d 'git\'s merge driver for poddoc archives: git runs it (set it up with `poddoc git-setup`).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'textconv' -d 'Print a document as text for `git diff` and `git log -p` (git runs it: set it up with `poddoc git-setup`).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'crash-test' -d 'Kill a child poddoc with SIGKILL while it edits and autosaves, again and again, and check every reopen.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc new" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" kind' -l 'kind' -d 'What it holds: pods (CocoaPods specs) or outline.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" from' -l 'from' -d 'Rebuild a document from the objects JSON `poddoc export DOC FILE --format objects` wrote: its kind (any kind) and model come from the file.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc new" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc open" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" autosave-interval' -l 'autosave-interval' -d 'Seconds between autosaves while there are unsaved changes (0: no autosave).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" c' -s 'c' -d 'Run these commands (separated by ;) instead of reading standard input.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" read-only' -l 'read-only' -d 'Open for reading only: nothing is locked or written, and a document on a read-only disk opens; `save --as` writes an editable copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc open" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc info" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" read-only' -l 'read-only' -d 'Accepted for symmetry with `open --read-only`: this command always opens the document read-only, without a lock.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc versions" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" read-only' -l 'read-only' -d 'Accepted for symmetry with `open --read-only`: this command always opens the document read-only, without a lock.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" last' -l 'last' -d 'List only the newest N entries.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc versions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc diff" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" read-only' -l 'read-only' -d 'Accepted for symmetry with `open --read-only`: this command always opens the document read-only, without a lock.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc diff" -eq 2' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" from' -l 'from' -d 'Compare the document as it was after save N (`poddoc versions` lists them)…' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" to' -l 'to' -d '…with the document as it was after save M (default: as it is now).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" exit-code' -l 'exit-code' -d 'Exit with status 1 when anything differs and 0 when nothing does, as diff(1) and `git diff --exit-code` do.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc diff" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc import" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" from' -l 'from' -d 'Pods: a specs service URL (http://…/specs), a Specs folder (or a folder of spec files), a page file, or one spec file (Name.podspec.json).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" resume' -l 'resume' -d 'Pods: continue an interrupted import after its last saved page.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" opml' -l 'opml' -d 'Outline: an OPML file to add.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" markdown' -l 'markdown' -d 'Outline: a Markdown list to add.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" text' -l 'text' -d 'Outline: an indented text file to add.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" outline-json' -l 'outline-json' -d 'Outline: a file in the outline JSON format to add.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" under' -l 'under' -d 'Outline: the item to add under (default: the top level).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc export" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc export" -eq 2' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" format' -l 'format' -d 'archive (.tar.zst, .zip or .tar.gz by the name) | objects (every object as JSON, any kind; json too for kinds poddoc does not know) | json | csv | specs (pods) | opml | markdown | text | json (outline).' -rfka 'archive objects json opml markdown text csv specs'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" force' -l 'force' -d 'Replace an existing file or folder at OUTPUT: the export is written beside it and swapped in only when complete, so a failure leaves the old one.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" at' -l 'at' -d 'Export the document as it was after save N (`poddoc versions` lists them) rather than as it is now; an archive then holds the history up to that save.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc save" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" as' -l 'as' -d 'Where to write the document (must not exist).' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" format' -l 'format' -d 'package | tar.zst | zip | tar.gz: the one the name says (NAME.poddoc, NAME.tar.zst …), checked.' -rfka 'package tar.zst zip tar.gz'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc save" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc revert" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" to' -l 'to' -d 'The save to go back to: a number `poddoc versions` lists. The saves after it stay in the history; reverting is a save of its own, so going back to the save before it undoes it.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc revert" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc merge" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc merge" -eq 2' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" prefer' -l 'prefer' -d 'Resolve every conflict one way: mine (keep this copy\'s) or theirs (take the other\'s).' -rfka 'mine theirs'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" two-way' -l 'two-way' -d 'When the copies share no save whose changes both still keep (their histories were let go), merge anyway: every difference is then a conflict, resolved by --prefer (or one by one in the shell).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" base' -l 'base' -d 'A copy of the document as it was when the two copies parted (git\'s merge base): used when their histories share no save whose changes both still keep.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" remove-copy' -l 'remove-copy' -d 'When THEIRS is a copy a sync tool kept beside this document after a conflict (Name.sync-conflict-…, Name (… conflicted copy …)), remove it once its changes are merged in.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc check" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" read-only' -l 'read-only' -d 'Accepted for symmetry with `open --read-only`: this command always opens the document read-only, without a lock.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc recover" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" discard' -l 'discard' -d 'Drop the waiting work instead, keeping the archive as last saved (when the archive changed since: take theirs).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" keep-mine' -l 'keep-mine' -d 'When the archive changed since the work was autosaved (another writer): write the waiting work over it anyway.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" as' -l 'as' -d 'Write the waiting work to a new document here instead, leaving the archive as it is.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc recover" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc serve" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" host' -l 'host' -d 'The address to listen on (this machine only, by default).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" port' -l 'port' -d 'The port (0 picks a free one).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" page-size' -l 'page-size' -d 'Specs per page.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'ls' -d 'List the items under an item (the current one in the shell).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'tree' -d 'Print the outline below an item, numbered and indented (--json: the outline JSON format).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'find' -d 'Find the items whose titles contain every word (case-insensitive).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'add' -d 'Add an item under an item (the current one in the shell), last or at a position.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'insert' -d 'Insert an item at a position (1.3 inserts before the item now at 1.3).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'mv' -d 'Move an item, with everything below it, under another item.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'rename' -d 'Give an item a new title.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'note' -d 'Set an item\'s note, or remove it when no text is given.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'done' -d 'Mark an item done (a task; `undone` marks it open again).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'undone' -d 'Mark an item a task still open (`- [ ]`); `find --open` lists them.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'indent' -d 'Make an item the last child of the item above it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'outdent' -d 'Make an item follow its parent, one level up.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline" -eq 1' -fa 'rm' -d 'Delete an item and everything below it (undo brings them back).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline ls" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline tree" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" depth' -l 'depth' -d 'Print at most this many levels.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline tree" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline find" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" open' -l 'open' -d 'Only tasks still open (`outline undone`, Markdown `- [ ]`, OPML `_status="unchecked"`).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" done' -l 'done' -d 'Only tasks done (`outline done`).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" limit' -l 'limit' -d 'Show at most this many items.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline find" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline add" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" under' -l 'under' -d 'The parent item (default: the current item; the top level at first).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" at' -l 'at' -d 'Its position among the parent\'s items, from 1 (default: last).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" note' -l 'note' -d 'A note under the item.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline insert" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline insert" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline mv" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" under' -l 'under' -d 'The new parent (/ for the top level; leave out to move the item among its siblings with --at).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" at' -l 'at' -d 'Its position among the new parent\'s items, from 1 (default: last).' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline mv" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline rename" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline note" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline note" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline done" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline done" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline undone" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline undone" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline indent" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline indent" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline outdent" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline outdent" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc outline rm" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc outline rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods" -eq 1' -fa 'ls' -d 'List specs by name and version, optionally those whose names start with a prefix.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods" -eq 1' -fa 'search' -d 'Search the saved specs\' summaries and descriptions, best matches first.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods" -eq 1' -fa 'show' -d 'Show one spec (the highest version unless one is given); --json prints its original JSON.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods" -eq 1' -fa 'count' -d 'Count the specs, or those whose names start with a prefix.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods ls" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" swift' -l 'swift' -d 'Only specs that declare this Swift version (swift_versions or swift_version), as written: 5.9.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" limit' -l 'limit' -d 'Show at most this many specs.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods search" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" limit' -l 'limit' -d 'Show at most this many specs.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods show" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc pods count" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc pods count" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc objects" -eq 1' -fa 'ls' -d 'List the entities of any document with their counts, or the objects of one entity.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc objects" -eq 1' -fa 'show' -d 'Show one object of any document: its attributes, and its relationships by id.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc objects ls" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" limit' -l 'limit' -d 'Show at most this many objects, by id.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects ls" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc objects show" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" recover' -l 'recover' -d 'Open the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" discard' -l 'discard' -d 'Discard the autosaved work waiting in the working copy.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" read-only' -l 'read-only' -d 'Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc objects show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup"' -l 'pattern' -d 'A gitattributes pattern naming poddoc archives (repeatable); the three archive endings by default.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" global' -l 'global' -d 'Set it up for every repository of yours (git\'s --global config and your global attributes file).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" remove' -l 'remove' -d 'Take the set-up away: the .gitattributes lines poddoc wrote and the poddoc driver settings.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc git-setup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc merge-driver" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc merge-driver" -eq 2' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc merge-driver" -eq 3' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge-driver" prefer' -l 'prefer' -d 'Resolve every conflict one way: mine (ours) or theirs; default: git config poddoc.prefer.' -rfka 'mine theirs'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge-driver" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc merge-driver" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_positional "poddoc textconv" -eq 1' -F
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc textconv" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc textconv" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" cycles' -l 'cycles' -d 'How many kills.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" kind' -l 'kind' -d 'What the children do: edit an outline or import pods with autosave on; edit a copy of --from, of any kind (its kind\'s identifier), with edits made from its model; or (migration) upgrade an outline document of model 1 with `poddoc outline add`, killed at random moments: the document must come back old or upgraded, never a mix.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" from' -l 'from' -d 'A document whose copy the children edit (read, never written): any kind, an app\'s own included; its kind is the test\'s.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" format' -l 'format' -d 'A package, or an archive (autosaved in its working copy).' -rfka 'package archive'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" seed' -l 'seed' -d 'The seed of every random choice; the same seed repeats the same test.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" autosave-interval' -l 'autosave-interval' -d 'The child\'s autosave interval, in milliseconds.' -rfka ''
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" specs' -l 'specs' -d 'A page file of specs for the pods child to import from (such as SampleDocuments/specs-2014-sample.json); by default 300 made-up specs.' -rF
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" work-folder' -l 'work-folder' -d 'Keep the documents in this folder, new or empty (or one an earlier crash test made); by default a temporary folder, removed at the end.' -rfa '(__poddoc_complete_directories)'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" force' -l 'force' -d 'Use a --work-folder that holds other things: the test replaces its Crash.poddoc, state and batches there.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" json' -l 'json' -d 'Print the result as JSON (shapes in docs/CLI.md).'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" q quiet' -l 'quiet' -s 'q' -d 'Show no progress (a bar on a terminal, a line every few seconds otherwise); results, messages and errors still print.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" version' -l 'version' -d 'Show the version.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc crash-test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'poddoc' -n '__poddoc_should_offer_completions_for_flags_or_options "poddoc help" version' -l 'version' -d 'Show the version.'
