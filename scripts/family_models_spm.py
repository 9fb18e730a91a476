"""The synthesized SentencePiece-style vocabulary of make-family-models.py's gemma2, gemma3 and
phi3 families (and phi3's LongRoPE variants): each family's special tokens, the 256
byte-fallback tokens, then single characters, common English words and subwords with and
without the leading visible space, scored so longer and commoner pieces win.
"""

from __future__ import annotations

import numpy as np

SPACE = "\u2581"  # SentencePiece's visible space

# Common English words, most frequent first (the order feeds the piece scores).
WORDS = """
the of and to a in is it you that he was for on are with as I his they be at one have this
from or had by not word but what some we can out other were all there when up use your how
said an each she which do their time if will way about many then them write would like so
these her long make thing see him two has look more day could go come did number sound no
most people my over know water than call first who may down side been now find any new work
part take get place made live where after back little only round man year came show every
good me give our under name very through just form sentence great think say help low line
differ turn cause much mean before move right boy old too same tell does set three want air
well also play small end put home read hand port large spell add even land here must big
high such follow act why ask men change went light kind off need house picture try us again
animal point mother world near build self earth father head stand own page should country
found answer school grow study still learn plant cover food sun four between state keep eye
never last let thought city tree cross farm hard start might story saw far sea draw left
late run while press close night real life few north open seem together next white children
begin got walk example ease paper group always music those both mark often letter until
mile river car feet care second book carry took science eat room friend began idea fish
mountain stop once base hear horse cut sure watch color face wood main enough plain girl
usual young ready above ever red list though feel talk bird soon body dog family direct pose
leave song measure door product black short numeral class wind question happen complete ship
area half rock order fire south problem piece told knew pass since top whole king space heard
best hour better true during hundred five remember step early hold west ground interest reach
fast verb sing listen six table travel less morning ten simple several vowel toward war lay
against pattern slow center love person money serve appear road map rain rule govern pull cold
notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure
star box noun field rest correct able pound done beauty drive stood contain front teach week
final gave green oh quick develop ocean warm free minute strong special mind behind clear tail
produce fact street inch multiply nothing course stay wheel full force blue object decide
surface deep moon island foot system busy test record boat common gold possible plane stead
dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire
bring yes distant fill east paint language among grand ball yet wave drop heart am present
heavy dance engine position arm wide sail material size vary settle speak weight general ice
matter circle pair include divide syllable felt perhaps pick sudden count square reason length
represent art subject region energy hunt probable bed brother egg ride cell believe fraction
forest sit race window store summer train sleep prove lone leg exercise wall catch mount wish
sky board joy winter sat written wild instrument kept glass grass cow job edge sign visit past
soft fun bright gas weather month million bear finish happy hope flower clothe strange gone
jump baby eight village meet root buy raise solve metal whether push seven paragraph third
shall held hair describe cook floor either result burn hill safe cat century consider type law
bit coast copy phrase silent tall sand soil roll temperature finger industry value fight lie
beat excite natural view sense ear else quite broke case middle kill son lake moment scale
loud spring observe child straight consonant nation dictionary milk speed method organ pay age
section dress cloud surprise quiet stone tiny climb cool design poor lot experiment bottom key
iron single stick flat twenty skin smile crease hole trade melody trip office receive row mouth
exact symbol die least trouble shout except wrote seed tone join suggest clean break lady yard
rise bad blow oil blood touch grew cent mix team wire cost lost brown wear garden equal sent
choose fell fit flow fair bank collect save control decimal gentle woman captain practice
separate difficult doctor please protect noon whose locate ring character insect caught period
indicate radio spoke atom human history effect electric expect crop modern element hit student
corner party supply bone rail imagine provide agree thus capital chair danger fruit rich thick
soldier process operate guess necessary sharp wing create neighbor wash bat rather crowd corn
compare poem string bell depend meat rub tube famous dollar stream fear sight thin triangle
planet hurry chief colony clock mine tie enter major fresh search send yellow gun allow print
dead spot desert suit current lift rose continue block chart hat sell success company subtract
event particular deal swim term opposite wife shoe shoulder spread arrange camp invent cotton
born determine quart nine truck noise level chance gather shop stretch throw shine property
column molecule select wrong gray repeat require broad prepare salt nose plural anger claim
continent oxygen sugar death pretty skill women season solution magnet silver thank branch
match suffix especially fig afraid huge sister steel discuss forward similar guide experience
score apple bought led pitch coat mass card band rope slip win dream evening condition feed
tool total basic smell valley nor double seat arrive master track parent shore division sheet
substance favor connect post spend chord fat glad original share station dad bread charge
proper bar offer segment slave duck instant market degree populate chick dear enemy reply
drink occur support speech nature range steam motion path liquid log meant quotient teeth
shell neck lighthouse keeper ships harbour coastal trade storm lamp lens tower stairs
function return value model token server request engine memory cache data file code error
string number list print import class def self none true false let mut fn pub struct impl
""".split()

SUFFIXES = "s es ed ing er ers est ly tion tions ment ness able ful less ous al ive ity y".split()
PUNCT = list(".,;:!?'\"()[]{}<>-_/\\|@#$%^&*+=~`")


# Special tokens of the SentencePiece families, in id order, with their token types and
# which are BOS, EOS, UNK and PAD. Phi-3's are its real ones: llama.cpp looks some of them up
# by text for files whose name says Phi-3.
SPM_SPECIALS = {
    "gemma3": dict(
        tokens=["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"],
        types=[3, 3, 3, 2, 3, 3], bos=2, eos=1, unk=3, pad=0,
    ),
    "phi3": dict(
        tokens=["<unk>", "<s>", "</s>", "<|endoftext|>", "<|assistant|>", "<|end|>",
                "<|system|>", "<|user|>"],
        types=[2, 3, 3, 3, 3, 3, 3, 3], bos=1, eos=3, unk=0, pad=3,
    ),
}


# Gemma 2 and Gemma 3 share their special tokens.
SPM_SPECIALS["gemma2"] = SPM_SPECIALS["gemma3"]


def spm_vocab(family: str) -> dict:
    """A SentencePiece-style (llama.cpp "llama" model) vocabulary: the family's special
    tokens, the 256 byte-fallback tokens, then single characters, words and subwords with and
    without the leading visible space. Every piece's prefixes are pieces too, so any word in
    the list can be assembled by pairwise merges."""
    specials = SPM_SPECIALS[family]
    tokens = list(specials["tokens"])
    types = list(specials["types"])
    scores = [0.0] * len(tokens)
    for b in range(256):
        tokens.append(f"<0x{b:02X}>")
        types.append(6)
        scores.append(0.0)

    pieces: dict[str, float] = {}

    def add(piece: str, score: float) -> None:
        if piece and (piece not in pieces or pieces[piece] < score):
            pieces[piece] = score

    def add_with_prefixes(piece: str, score: float) -> None:
        for n in range(1, len(piece) + 1):
            # a prefix scores a little below its extension's base so longer pieces win ties
            add(piece[:n], score - 0.5 * (len(piece) - n))

    chars = ([SPACE, "\n", "\t"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
             + [chr(c) for c in range(ord("A"), ord("Z") + 1)] + list("0123456789") + PUNCT
             + list("éèàüöäçñ—…"))
    for c in chars:
        add(c, -8.0)
    for run in (SPACE * 2, SPACE * 3, SPACE * 4, SPACE * 8, "\n\n", "\n\n\n", "\t\t"):
        add_with_prefixes(run, -4.0 + 0.1 * len(run))
    for d in range(100):
        add_with_prefixes(str(d), -6.0)
        add_with_prefixes(SPACE + str(d), -6.0)
    for p in (".", ",", "(", "\"", "'", "-", ":", "[", "{", "<", "=", "+", "*", "/", "$"):
        add(SPACE + p, -5.0)
    for p in ("()", "):", "\",", ".\n", ",\n", "->", "=>", "==", "!=", "<=", ">=", "::",
              "//", "/*", "*/", "{}", "[]", "...", "--", "n'", "'s", "'t", "'re", "'ll"):
        add_with_prefixes(p, -3.0)

    seen_words = []
    for w in WORDS:
        if w not in seen_words:
            seen_words.append(w)
    n = len(seen_words)
    for rank, w in enumerate(seen_words):
        freq = 3.0 * (1.0 - rank / n)  # commoner words score higher
        base = 0.35 * len(w) + freq
        add_with_prefixes(SPACE + w, base + 0.5)
        add_with_prefixes(w, base)
        if rank < 150:
            cap = w[:1].upper() + w[1:]
            add_with_prefixes(SPACE + cap, base)
            add_with_prefixes(cap, base - 0.5)
        if rank < 150:
            for s in SUFFIXES[:4]:
                add_with_prefixes(SPACE + w + s, base - 0.5)
    for s in SUFFIXES:
        add_with_prefixes(s, 0.3 * len(s))

    # Stable order: by score, descending, then by the piece itself; break score ties so no
    # two pieces share a score (tokenizers differ in how they break them).
    ordered = sorted(pieces.items(), key=lambda kv: (-kv[1], kv[0]))
    for i, (piece, score) in enumerate(ordered):
        tokens.append(piece)
        types.append(1)
        scores.append(float(np.float32(round(score - i * 1e-4, 4))))
    return {"tokens": tokens, "types": types, "scores": scores,
            **{k: specials[k] for k in ("bos", "eos", "unk", "pad")}}
