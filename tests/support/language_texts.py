"""Short news-like sentences in each language the tests compare, written for this project
(no digits mixed with letters, no symbols: the texts on which rouge_plus and the XL-Sum scorer
define tokens alike), and (prediction, reference) pairs built from them."""

from __future__ import annotations

import random

# fmt: off
SENTENCES: dict[str, list[str]] = {
    "zh": [
        "我爱北京天安门。", "今天天气很好，我们去公园散步吧！",
        "中国政府宣布了新的经济政策。", "这家公司的股票价格昨天大幅上涨。",
        "科学家们发现了一种新的治疗方法。",
    ],
    "ja": [
        "東京タワーは日本の有名な観光地です。", "昨日、首相は新しい経済政策を発表しました。",
        "この会社の株価は大きく上がりました。", "科学者たちは新しい治療法を見つけた。",
        "明日は雨が降るでしょう。",
    ],
    "th": [
        "ฉันรักภาษาไทย", "วันนี้อากาศดีมาก", "รัฐบาลประกาศนโยบายเศรษฐกิจใหม่",
        "นักวิทยาศาสตร์ค้นพบวิธีการรักษาแบบใหม่", "ราคาหุ้นของบริษัทนี้เพิ่มขึ้นอย่างมาก",
    ],
    "hi": [
        "भारत की राजधानी नई दिल्ली है।", "सरकार ने नई आर्थिक नीतियों की घोषणा की।",
        "वैज्ञानिकों ने एक नया इलाज खोजा है।", "कल बारिश होने की संभावना है।",
        "खिलाड़ियों ने शानदार प्रदर्शन किया और मैच जीत लिया।",
    ],
    "bn": [
        "বাংলাদেশের রাজধানী ঢাকা।", "সরকার নতুন অর্থনৈতিক নীতি ঘোষণা করেছে।",
        "বিজ্ঞানীরা একটি নতুন চিকিৎসা আবিষ্কার করেছেন।", "আগামীকাল বৃষ্টি হতে পারে।",
    ],
    "tr": [
        "Türkiye'nin başkenti Ankara'dır.", "Hükümet yeni ekonomik politikalarını açıkladı.",
        "Bilim insanları yeni bir tedavi yöntemi buldular.", "Yarın yağmur yağması bekleniyor.",
        "Oyuncular harika oynadılar ve maçı kazandılar.",
    ],
    "de": [
        "Die Regierung hat neue wirtschaftliche Maßnahmen angekündigt.",
        "Wissenschaftler haben eine neue Behandlungsmethode entdeckt.",
        "Die Spieler spielten hervorragend und gewannen das Spiel.",
        "Morgen wird es in vielen Regionen regnen.",
    ],
    "es": [
        "El gobierno anunció nuevas medidas económicas.",
        "Los científicos descubrieron un nuevo tratamiento.",
        "Los jugadores jugaron muy bien y ganaron el partido.",
        "Mañana lloverá en muchas regiones del país.",
    ],
    "fr": [
        "Le gouvernement a annoncé de nouvelles mesures économiques.",
        "Les scientifiques ont découvert un nouveau traitement.",
        "Les joueurs ont très bien joué et ont gagné le match.",
        "Demain, il pleuvra dans plusieurs régions.",
    ],
    "ru": [
        "Правительство объявило о новых экономических мерах.",
        "Учёные открыли новый метод лечения.",
        "Игроки отлично сыграли и выиграли матч.",
        "Завтра во многих регионах пойдут дожди.",
    ],
    "ar": [
        "أعلنت الحكومة عن إجراءات اقتصادية جديدة.", "اكتشف العلماء علاجا جديدا.",
        "لعب اللاعبون بشكل رائع وفازوا بالمباراة.", "من المتوقع أن تمطر غدا في مناطق كثيرة.",
    ],
    "pt": [
        "O governo anunciou novas medidas econômicas.",
        "Os cientistas descobriram um novo tratamento.",
        "Os jogadores jogaram muito bem e venceram a partida.",
        "Amanhã vai chover em muitas regiões.",
    ],
    "it": [
        "Il governo ha annunciato nuove misure economiche.",
        "Gli scienziati hanno scoperto una nuova cura.",
        "I giocatori hanno giocato benissimo e hanno vinto la partita.",
        "Domani pioverà in molte regioni.",
    ],
    "nl": [
        "De regering heeft nieuwe economische maatregelen aangekondigd.",
        "Wetenschappers hebben een nieuwe behandeling ontdekt.",
        "De spelers speelden geweldig en wonnen de wedstrijd.",
        "Morgen gaat het in veel regio's regenen.",
    ],
    "sv": [
        "Regeringen har presenterat nya ekonomiska åtgärder.",
        "Forskarna har upptäckt en ny behandling.",
        "Spelarna spelade mycket bra och vann matchen.",
        "I morgon regnar det i många regioner.",
    ],
    "fi": [
        "Hallitus julkisti uusia talouspoliittisia toimia.",
        "Tutkijat löysivät uuden hoitomenetelmän.",
        "Pelaajat pelasivat erinomaisesti ja voittivat ottelun.",
        "Huomenna sataa monilla alueilla.",
    ],
}
# fmt: on

UNSPACED = frozenset({"zh", "ja", "th"})


def _shorten(text: str, unspaced: bool, rng: random.Random) -> str:
    """Drop about a third of the text: characters in unspaced scripts, words elsewhere."""
    units = list(text) if unspaced else text.split()
    keep = [unit for unit in units if rng.random() > 0.3] or units[:1]
    return ("" if unspaced else " ").join(keep)


def pairs(code: str, *, multi_sentence: bool = False) -> list[tuple[str, str]]:
    """(prediction, reference) pairs: identical, shortened, reordered and mixed sentences;
    with ``multi_sentence``, two sentences a text, one per line."""
    rng = random.Random(code)
    sentences = SENTENCES[code]
    unspaced = code in UNSPACED
    out = []
    for i, first in enumerate(sentences):
        second = sentences[(i + 1) % len(sentences)]
        if multi_sentence:
            reference = f"{first}\n{second}"
            out.append((f"{_shorten(second, unspaced, rng)}\n{first}", reference))
            out.append((f"{first}\n{_shorten(second, unspaced, rng)}", reference))
        else:
            out.append((first, first))
            out.append((_shorten(first, unspaced, rng), first))
            out.append((f"{_shorten(second, unspaced, rng)} {first}", first))
    return out
