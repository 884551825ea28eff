#!/bin/bash

__poddoc_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__poddoc_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__poddoc_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__poddoc_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_poddoc() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __poddoc_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    new|open|info|versions|diff|import|export|save|revert|merge|check|recover|serve|outline|pods|objects|git-setup|merge-driver|textconv|crash-test|help)
        # Offer subcommand argument completions
        "_poddoc_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'new open info versions diff import export save revert merge check recover serve outline pods objects git-setup merge-driver textconv crash-test help' -- "${cur}"))
        ;;
    esac
}

_poddoc_new() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--kind --from)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--kind')
        return
        ;;
    '--from')
        __poddoc_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_open() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --read-only --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--autosave-interval -c)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--autosave-interval')
        return
        ;;
    '-c')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_info() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --read-only --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_versions() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --read-only --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--last)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--last')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_diff() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --read-only --exit-code --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--from --to)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--from')
        return
        ;;
    '--to')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    2)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_import() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --resume --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--from --opml --markdown --text --outline-json --under)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--from')
        return
        ;;
    '--opml')
        __poddoc_add_completions -f
        return
        ;;
    '--markdown')
        __poddoc_add_completions -f
        return
        ;;
    '--text')
        __poddoc_add_completions -f
        return
        ;;
    '--outline-json')
        __poddoc_add_completions -f
        return
        ;;
    '--under')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_export() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --force --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --at)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--format')
        __poddoc_add_completions -W 'archive'$'\n''objects'$'\n''json'$'\n''opml'$'\n''markdown'$'\n''text'$'\n''csv'$'\n''specs'
        return
        ;;
    '--at')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    2)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_save() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--as --format)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--as')
        __poddoc_add_completions -f
        return
        ;;
    '--format')
        __poddoc_add_completions -W 'package'$'\n''tar.zst'$'\n''zip'$'\n''tar.gz'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_revert() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--to)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--to')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_merge() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --two-way --remove-copy --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--prefer --base)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--prefer')
        __poddoc_add_completions -W 'mine'$'\n''theirs'
        return
        ;;
    '--base')
        __poddoc_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    2)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_check() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --read-only --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_recover() {
    repeating_flags=()
    non_repeating_flags=(--discard --keep-mine --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--as)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--as')
        __poddoc_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_serve() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--host --port --page-size)
    __poddoc_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--page-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|tree|find|add|insert|mv|rename|note|done|undone|indent|outdent|rm)
        # Offer subcommand argument completions
        "_poddoc_outline_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls tree find add insert mv rename note done undone indent outdent rm' -- "${cur}"))
        ;;
    esac
}

_poddoc_outline_ls() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_tree() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--depth)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--depth')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_find() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --open --done --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit)
    __poddoc_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_add() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--under --at --note)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--under')
        return
        ;;
    '--at')
        return
        ;;
    '--note')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_insert() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 3

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_mv() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--under --at)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--under')
        return
        ;;
    '--at')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_rename() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 3

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_note() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 3

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_done() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_undone() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_indent() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_outdent() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_outline_rm() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_pods() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|search|show|count)
        # Offer subcommand argument completions
        "_poddoc_pods_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls search show count' -- "${cur}"))
        ;;
    esac
}

_poddoc_pods_ls() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--swift --limit)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--swift')
        return
        ;;
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_pods_search() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit)
    __poddoc_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_pods_show() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 3

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_pods_count() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 2

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_objects() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    ls|show)
        # Offer subcommand argument completions
        "_poddoc_objects_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'ls show' -- "${cur}"))
        ;;
    esac
}

_poddoc_objects_ls() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit)
    __poddoc_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_objects_show() {
    repeating_flags=()
    non_repeating_flags=(--recover --discard --json --quiet -q --read-only --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 3

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_git-setup() {
    repeating_flags=()
    non_repeating_flags=(--global --remove --json --quiet -q --version -h --help)
    repeating_options=(--pattern)
    non_repeating_options=()
    __poddoc_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--pattern')
        return
        ;;
    esac
}

_poddoc_merge-driver() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--prefer)
    __poddoc_offer_flags_options 4

    # Offer option value completions
    case "${prev}" in
    '--prefer')
        __poddoc_add_completions -W 'mine'$'\n''theirs'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    2)
        __poddoc_add_completions -f
        return
        ;;
    3)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_textconv() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __poddoc_add_completions -f
        return
        ;;
    esac
}

_poddoc_crash-test() {
    repeating_flags=()
    non_repeating_flags=(--force --json --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--cycles --kind --from --format --seed --autosave-interval --specs --work-folder)
    __poddoc_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--cycles')
        return
        ;;
    '--kind')
        return
        ;;
    '--from')
        __poddoc_add_completions -f
        return
        ;;
    '--format')
        __poddoc_add_completions -W 'package'$'\n''archive'
        return
        ;;
    '--seed')
        return
        ;;
    '--autosave-interval')
        return
        ;;
    '--specs')
        __poddoc_add_completions -f
        return
        ;;
    '--work-folder')
        __poddoc_add_completions -d
        return
        ;;
    esac
}

_poddoc_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __poddoc_offer_flags_options -1
}

complete -o filenames -F _poddoc poddoc
