"""The learned scorer's role groups in other languages than English: one lexicon per role, every language.

Private to :mod:`mcp_troupe.policy._injection_model`. The scorer's structural groups (``_GROUPS`` there: the
user, the model, an obligation, a negation, something kept from someone, hidden, claimed authority, a
retired tool, data moved, the session's data, consent set aside, ...) are what carries what it learned
from one language to another: a weight learned for ``[names the user + kept from someone]`` on English and
French attacks applies to a Korean sentence that holds 사용자 and 알리지, if the Korean words feed the same
groups. This module is those words, for Spanish, Portuguese, French, Italian, German, Dutch, Swedish,
Polish, Czech, Russian, Ukrainian, Turkish, Indonesian, Vietnamese, Chinese, Japanese, Korean, Arabic and
Hindi. Each role's words are written from the role, not from attacks (a non-native author wrote them; see
docs/security.md).

Three kinds of entry, one syntax (space-separated, per group):

- a word of a spaced script (Latin, Cyrillic), matched whole after case folding and with diacritics
  removed (``usuário`` and ``usuario``, ``kullanıcı`` and ``kullanici`` are one entry);
- such a word ending in ``*``: a stem, matched as the start of a word of at least its length (``inform*``
  holds ``informe``, ``informar``, ``informiert``); stems are at least four letters, so they seldom start
  an unrelated word;
- an entry of a script without spaces between words (Han, Kana, Hangul, whose words carry particles; also
  Arabic and Devanagari, whose words take prefixes and suffixes): a fragment, found anywhere in the
  sentence.

Stems and whole words are read only in a sentence that is not English (it has a letter outside ASCII, or
none of a few English function words), so English sentences get the groups they always had.
"""

# ruff: noqa: E501, RUF001, RUF002 - the lexicons are data: words of other scripts, one role to a string.
from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from typing import Final

__all__ = ["GROUP_ENTRIES", "TRIGGER_GROUPS", "WORD", "fold", "foreign_groups", "is_english", "maybe_foreign"]

GROUP_ENTRIES: Final[dict[str, str]] = {
    "user": (
        "usuario usuaria usuarios cliente utilizador utilisateur* utente utenti benutzer* nutzer* anwender* "
        "gebruiker* användare* anvandare* uzytkownik* użytkownik* uživatel* uzivatel* пользовател* "
        "користувач* kullanıcı* kullanici* pengguna pelanggan khách người "
        "用户 用戶 使用者 ユーザー ユーザ 利用者 お客様 사용자 이용자 고객 المستخدم مستخدم उपयोगकर्ता यूज़र"
    ),
    "model": (
        "asistente assistente assistant assistenten assistentin asystent* asistent* ассистент* асистент* "
        "помощник* помічник* asisten asistan* yardımcı* yapay modelo modèle modello modell* ии ші ia ki "
        "助手 助理 模型 アシスタント モデル 어시스턴트 모델 에이전트 المساعد الذكاء सहायक"
    ),
    "you": (
        "tú usted ustedes tu tus vous você voi du dich dir dein* jij je uw u du ni ty ви вы ты ти sen siz "
        "anda kamu bạn "
        "你 您 あなた 당신 أنت आप"
    ),
    "oblige": (
        "debe deben debes deberá obligatori* necesario necesita hay_que tiene_que siempre nunca "
        "doit doivent devez devra obligatoire nécessaire necessaire toujours jamais "
        "deve devem deverá precisa necessário sempre nunca "
        "devono dovrà bisogna necessario obbligatori* sempre mai "
        "muss müssen musst soll sollen sollte verpflichte* erforderlich notwendig immer niemals "
        "moet moeten verplicht* altijd nooit måste ska skall alltid aldrig "
        "musi muszą należy trzeba wymagan* zawsze nigdy musí nutn* vždy nikdy "
        "должен должна должны обязан* необходимо нужно требуется всегда никогда "
        "повинен повинна повинні потрібно необхідно завжди ніколи "
        "gerekir zorunlu mutlaka daima asla harus wajib selalu phải luôn bắt_buộc "
        "必须 必需 务必 一定要 应当 应该 需要 始终 总是 必ず 必要 しなければ 常に 반드시 해야 항상 يجب ينبغي دائمًا दائما अवश्य ज़रूर हमेशा चाहिए"
    ),
    "negate": (
        "no ni nunca jamás sin ne pas jamais sans non não nao nem mai senza nicht kein* keine niemals ohne "
        "niet geen nooit zonder inte aldrig utan nie żaden bez ne není žádn* не ни нет без "
        "ні немає değil yok hiçbir asla tidak jangan bukan tanpa không đừng chớ "
        "不 不要 无需 无须 勿 别 没有 切勿 请勿 ない ないで ず 不要 않 말고 말아 마세요 없 لا عدم بدون मत नहीं न"
    ),
    "polite": (
        "por_favor favor nota aviso consejo sugerencia veuillez svp remarque conseil astuce "
        "per_favore suggerimento bitte hinweis tipp beachten graag opmerking tips vänligen notera "
        "proszę uwaga wskazówka prosím poznámka пожалуйста примечание совет будь_ласка примітка порада "
        "lütfen not ipucu mohon catatan tolong vui_lòng lưu_ý "
        "请 請 注意 提示 建议 ください 注意 ヒント 주의 참고 부탁 팁 يرجى ملاحظة कृपया ध्यान"
    ),
    "conversation": (
        "conversación conversacion chat respuesta respuestas mensaje mensajes historial "
        "conversation réponse message messages historique conversa conversação resposta mensagem histórico "
        "conversazione risposta messaggio cronologia gespräch* unterhaltung* antwort* nachricht* verlauf* "
        "gesprek antwoord bericht* samtal* svar meddelande* rozmow* odpowied* wiadomoś* konverzac* odpověď* zpráv* "
        "разговор* переписк* ответ* сообщени* розмов* відповід* повідомлен* "
        "sohbet* konuşma* yanıt* cevap* mesaj* percakapan jawaban pesan riwayat cuộc_trò_chuyện câu_trả_lời tin_nhắn "
        "对话 會話 会话 聊天 回复 回答 消息 记录 会話 履歴 返答 回答 メッセージ チャット 대화 답변 메시지 채팅 المحادثة رسالة الرد बातचीत संदेश जवाब"
    ),
    "instead": (
        "lugar sustitut* reemplaz* place remplac* lieu lugar substitut* posto sostitu* stattdessen anstelle ersetz* nachfolger "
        "plaats vervang* ställe ersätt* zamiast zastęp* místo nahraz* вместо замен* замість натомість yerine "
        "pengganti menggantikan thay_thế "
        "代替 替代 取代 改用 替换 代わり 代替 後継 대신 대체 후속 بدلا بديل بجاي स्थान_पर"
    ),
    "prior": (
        "ya antes anterior* previ* previa déjà avant précédent* antérieur* já antes già prima precedent* "
        "bereits schon vorher früher* vorig* zuvor vorab al eerder vorig* redan tidigare już wcześniej poprzedn* "
        "již dříve předchozí уже ранее прежн* предыдущ* вже раніше попередн* zaten önce önceki sudah sebelum* "
        "đã trước "
        "已经 已 之前 以前 先前 事先 预先 提前 すでに 既に 以前 事前 前に 이미 이전 미리 먼저 سابق مسبق قبل पहले पहले_से"
    ),
    "secrecy": (
        "decir diga digas informar* inform* mencion* menção mencione revel* avis* contar cuente "
        "dire dites mentionn* signal* préven* divulg* dizer diga conte dica comunic* raccont* "
        "sagen sag erwähn* mitteil* verrat* aufmerksam heimlich* stillschweigend* vertraulich* "
        "vertel* vermeld* melden zeggen berätta* nämn* meddela* tyst powiedz* wspomin* wspomn* poinform* "
        "říkat říct zmiň* upozorň* сообща* сообщи* говори* упомина* упомян* рассказ* уведом* "
        "повідом* говорит* згаду* bahset* söyle* bildir* haber* beritahu* memberitahu* sebutkan menyebut* diam-diam "
        "thông_báo nói cho_biết tiết_lộ "
        "告知 告诉 提及 提到 透露 说明 悄悄 偷偷 暗中 保密 伝え 知らせ 言及 教え 内緒 こっそり 알리 말하 언급 알려 몰래 비밀 "
        "إخبار تخبر إبلاغ تذكر سرا बताएं बताना बताने उल्लेख चुपचाप"
    ),
    "hide": (
        "ocult* escond* omit* interno interna cach* masqu* dissimul* interne escond* nascond* occult* intern* "
        "versteck* verberg* unterdrück* ausblend* verberg* verstop* verborg* dölj* gömm* intern ukry* "
        "wewnętrzn* skrý* skryt* interní скрыва* скрой скрыт* внутренн* приховa* прихова* внутрішн* "
        "gizle* dahili sembunyi* internal ẩn nội_bộ "
        "隐藏 隠し 隐瞒 内部 屏蔽 非表示 伏せ 隠す 숨기 숨김 내부 إخفاء داخلي छिप आंतरिक"
    ),
    "authority": (
        "cumplimiento obligatorio departamento directiva normativa oficial auditoría seguridad política "
        "conformité obligatoire département directive officiel* sécurité politique audit "
        "conformidade obrigatóri* departamento diretiva oficial segurança conformità obbligatori* dipartimento direttiva ufficiale sicurezza "
        "compliance verbindlich* vorgabe* abteilung* richtlinie* revision sicherheit* offiziell* "
        "verplicht* afdeling* richtlijn* beveiliging* officieel obligatorisk* avdelning* policy säkerhet* "
        "obowiązkow* dział* dyrektyw* bezpieczeństw* oficjaln* povinn* oddělení směrnic* bezpečnost* "
        "обязательн* отдел* директив* безопасност* официальн* регламент* обов'язков* відділ* безпек* офіційн* "
        "zorunlu departman* yönerge* güvenlik resmi wajib departemen kebijakan keamanan resmi bắt_buộc phòng chính_sách bảo_mật chính_thức "
        "合规 规定 部门 通知 官方 安全部 审计 政策 通達 規定 部 公式 監査 コンプライアンス 필수 정보보호 보안팀 공지 공식 감사 "
        "إلزامي إدارة الامتثال سياسة رسمي अनिवार्य विभाग नीति आधिकारिक"
    ),
    "deprecated": (
        "obsolet* desuso descontinuad* retirad* sustituid* obsolète déprécié* périmé* remplacé* abandonn* depreciad* "
        "deprecat* dismess* veraltet* abgekündigt* eingestellt* ersetzt verouderd* vervangen föråldrad* ersatt "
        "przestarzał* wycofan* zastarал* zastaral* zastaralý устарел* устарев* заменён* застаріл* замінен* "
        "kaldırıl* eskimiş kedaluwarsa usang dihentikan ngừng lỗi_thời "
        "弃用 废弃 过时 淘汰 停用 非推奨 廃止 旧 사용되지 더_이상 중단 폐지 قديم متوقف अप्रचलित बंद"
    ),
    "move": (
        "envía envia enviar envíe adjunt* incluy* inclu* pasa pasar reenv* copia copiar "
        "envoi* envoy* transmet* transfér* joign* joindre inclure inclus* mande mandar anex* transfer* "
        "invia* inoltr* allega* includ* passa sende* senden schick* weiterleit* übermittel* anhäng* mitsend* beifüg* übergeb* "
        "stuur* verstuur* doorstuur* bijvoeg* skicka* vidarebefordr* bifoga* wyśl* wysył* przekaż* przesł* dołącz* "
        "poslat* pošl* přeposl* připoj* отправ* перешл* пересыл* передай* передава* прикреп* включ* надсила* надісл* перешл* передава* додава* "
        "gönder* ilet* ekle* kirim* teruskan lampirkan sertakan gửi chuyển_tiếp đính_kèm "
        "发送 发给 发到 转发 附上 附加 填入 传入 上传 同步 备份 抄送 密送 送信 転送 添付 含め 入れ 渡し アップロード 보내 전달 첨부 포함 넣어 업로드 "
        "أرسل إرسال إرفاق أضف भेज संलग्न डालें"
    ),
    "context": (
        "historial conversación contenido archivo archivos contactos historique contenu fichier* contacts "
        "histórico conteúdo arquivo* contatos cronologia contenuto contatti verlauf* inhalt* datei* kontakt* "
        "geschiedenis inhoud bestand* historik* innehåll* histori* zawartoś* plik* obsah soubor* "
        "истори* содержим* файл* контакт* історі* вміст* контакти* geçmiş* içerik* dosya* kişiler riwayat isi berkas kontak "
        "lịch_sử nội_dung tệp danh_bạ "
        "记录 历史 内容 文件 通讯录 履歴 内容 ファイル 連絡先 기록 내용 파일 연락처 السجل محتوى ملف इतिहास सामग्री फ़ाइल"
    ),
    "secret": (
        "contraseña contrasena clave claves token tokens credencial* mot_passe clé jeton* identifiant* senha chave "
        "credenciais password chiave credenziali passwort* kennwort* schlüssel* zugangsdaten wachtwoord* sleutel* "
        "lösenord* nyckel* hasło hasła klucz* heslo klíč* пароль* ключ* токен* учетн* учётн* секрет* "
        "şifre* parola* anahtar* kata_sandi kunci mật_khẩu khóa "
        "密码 密钥 令牌 凭证 私钥 パスワード 秘密鍵 トークン 認証情報 キー 비밀번호 키 토큰 자격_증명 كلمة_المرور مفتاح رمز पासवर्ड कुंजी टोकन"
    ),
    "noask": (
        "confirm* consentimiento permiso autoriz* aprob* preguntar pregunt* consentement autoris* permission demander "
        "consentiment* consentimento autoriz* permissão perguntar conferma consenso permesso chiedere "
        "zustimm* einwillig* genehmig* erlaubnis bestätig* rückfrage* nachfrag* fragen toestemming bevestig* vragen "
        "samtycke* godkänn* bekräft* fråga zgod* potwierdz* pytać pytan* souhlas* potvrz* ptát "
        "согласи* подтвержд* разрешени* спрашива* запрашива* згод* підтвердж* дозвіл* запиту* "
        "onay* izin* sorma* sormadan persetujuan konfirmasi izin tanya đồng_ý xác_nhận cho_phép hỏi "
        "同意 授权 确认 许可 询问 征求 同意 許可 確認 承認 동의 확인 허락 승인 묻 موافقة تأكيد إذن सहमति पुष्टि अनुमति"
    ),
    "every": (
        "cada todo todos todas siempre cualquier chaque tous toutes toujours quel sempre ogni tutti qualsiasi qualquer "
        "jede* alle immer sämtlich* elke alle altijd varje alla alltid każd* wszystk* zawsze každ* všechn* vždy "
        "каждый каждого каждом кажд* все всех всегда будь-як* кожн* всі завжди her tüm daima setiap semua selalu mọi tất_cả luôn "
        "每次 每个 所有 任何 始终 一律 毎回 すべて 全て 常に 매번 모든 항상 كل دائما हर सभी हमेशा"
    ),
    "call": (
        "llama llamar usa usar utiliza ejecuta consulta lee leer appelle* appeler utilise* exécut* lire chame chamar "
        "execut* leia chiama* usa esegui* leggi rufe aufruf* verwend* benutz* ausführ* lies lesen roep* aanroep* gebruik* lees "
        "anropa* använd* läs wywołaj* wywoł* użyj* odczytaj* zavolej* použij* načti вызов* вызыва* использу* прочита* "
        "виклик* використ* прочит* çağır* kullan* oku okuy* panggil* gunakan baca gọi dùng sử_dụng đọc "
        "调用 使用 读取 执行 查询 呼び出 使用 読み取 実行 호출 사용 읽 실행 조회 استدعاء استخدم اقرأ कॉल उपयोग पढ़"
    ),
    "tools": (
        "herramienta* outil* ferramenta* strumento strumenti werkzeug* tool tools funktion* hulpmiddel verktyg* "
        "narzędzi* nástroj* инструмент* інструмент* araç* alat công_cụ servidor serveur server servers сервер* sunucu* "
        "工具 服务器 ツール サーバー 도구 서버 أداة الأداة خادم टूल सर्वर"
    ),
    "other": (
        "otro otra otros otras autre autres outro outra altro altra altri ander* andere anderen annan andra "
        "jiný jiná jiné другой другие других другим інший інша інші інших başka diğer lain lainnya khác "
        "其他 其它 别的 他の 別の 다른 أخرى آخر अन्य दूसरे"
    ),
    "we": (
        "nosotros nuestro nuestra nuestros nous notre nos nós nosso nossa noi nostro nostra wir unser* wij ons onze vi vår vårt "
        "my nasz* nasze náš naše наш наша наши наше нашего нашей мы ми bizim biz kami kita chúng_tôi "
        "我们 我方 本公司 当社 弊社 私たち 저희 우리 نحن لدينا हम हमारे"
    ),
}

# Scripts whose entries are fragments: Han, Kana, Hangul, Arabic, Devanagari.
_UNSPACED: Final = re.compile("[\u0600-\u06ff\u0900-\u097f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_ENGLISH: Final = frozenset(
    ("the", "and", "of", "to", "is", "you", "this", "for", "with", "that", "are", "it")
)


def fold(word: str) -> str:
    """``word`` lower-cased with its diacritics removed (``usuário`` -> ``usuario``, ``ı`` -> ``i``)."""
    if word.isascii():
        return word.lower()
    decomposed = unicodedata.normalize("NFD", word.lower().replace("ı", "i"))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _compile() -> tuple[
    dict[str, frozenset[str]], dict[str, frozenset[str]], re.Pattern[str], dict[str, frozenset[str]]
]:
    words: dict[str, set[str]] = {}
    stems: dict[str, set[str]] = {}
    fragments: dict[str, set[str]] = {}
    raw: dict[str, set[str]] = {}
    for group, entries in GROUP_ENTRIES.items():
        for entry in entries.split():
            entry = entry.replace("_", " ")  # a phrase of several words (por_favor, đồng_ý)
            if (
                not _UNSPACED.search(entry)
                and not entry.isascii()
                and not entry.endswith("*")
                and len(fold(entry)) < 4
            ):
                # A short word whose diacritics carry it (Vietnamese ý, ẩn): matched as written, since
                # without them it is another language's common word (Spanish y, an).
                raw.setdefault(entry.lower(), set()).add(group)
            elif _UNSPACED.search(entry):
                fragments.setdefault(entry, set()).add(group)
            elif entry.endswith("*"):
                stems.setdefault(fold(entry[:-1]), set()).add(group)
            else:
                words.setdefault(fold(entry), set()).add(group)
    # Longest fragments first, so that 不要 is found whole before 不 (both may count: findall is per position).
    alternation = "|".join(sorted(map(re.escape, fragments), key=len, reverse=True))
    words.update({f"={key}": value for key, value in raw.items()})
    return (
        {key: frozenset(value) for key, value in words.items()},
        {key: frozenset(value) for key, value in stems.items()},
        re.compile(alternation),
        {key: frozenset(value) for key, value in fragments.items()},
    )


_WORDS, _STEMS, _FRAGMENT_RE, _FRAGMENTS = _compile()
assert min(map(len, _STEMS)) >= 4, "a stem of fewer than four letters starts too many unrelated words"
# The stems by their first four letters: a word is compared with the few stems that start as it does (one
# dict lookup for nearly every word, instead of one per stem length).
_STEMS_BY_START: Final[dict[str, tuple[tuple[str, frozenset[str]], ...]]] = {}
for _stem, _groups in sorted(_STEMS.items()):
    _STEMS_BY_START[_stem[:4]] = (*_STEMS_BY_START.get(_stem[:4], ()), (_stem, _groups))


def is_english(words: Iterable[str], sentence: str) -> bool:
    """Whether a sentence reads as English: ASCII and holding one of a few English function words."""
    return sentence.isascii() and not _ENGLISH.isdisjoint(words)


def foreign_groups(sentence: str, words: Iterable[str]) -> set[str]:
    """The role groups that the words of a sentence in another language hold (see the module's doc)."""
    found: set[str] = set()
    words = list(words)
    for first, second in itertools.pairwise(words):  # phrases of two words
        hit = _WORDS.get(f"{fold(first)} {fold(second)}")
        if hit:
            found |= hit
    for word in words:
        raw = _WORDS.get(f"={word.lower()}")
        if raw:
            found |= raw
        folded = fold(word)
        if "'" in folded:  # French and Italian elision: l'utilisateur, dell'utente
            folded = folded.rpartition("'")[2]
        hit = _WORDS.get(folded)
        if hit:
            found |= hit
        for stem, groups in _STEMS_BY_START.get(folded[:4], ()):
            if folded.startswith(stem):
                found |= groups
    if not sentence.isascii() and _UNSPACED.search(sentence):
        for fragment in _FRAGMENT_RE.findall(sentence):
            found |= _FRAGMENTS[fragment]
    return found


TRIGGER_GROUPS: Final = frozenset(
    (
        *("user", "model", "you", "oblige", "negate", "secrecy", "hide", "authority", "deprecated"),
        *("noask", "prior", "instead", "secret", "polite", "conversation"),
    )
)
"""The groups whose words in another language make a sentence scored, as the English trigger words do."""


def _gate() -> tuple[frozenset[bytes], frozenset[bytes], frozenset[bytes]]:
    """The ASCII gate: the trigger groups' ASCII whole words, and the first five (or four, for a stem of
    four) letters of their ASCII stems. A word that an entry matches always hits one of them."""
    words = {word.encode() for word, groups in _WORDS.items() if word.isascii() and groups & TRIGGER_GROUPS}
    stems = [stem for stem, groups in _STEMS.items() if stem.isascii() and groups & TRIGGER_GROUPS]
    five = {stem[:5].encode() for stem in stems if len(stem) >= 5}
    four = {stem.encode() for stem in stems if len(stem) == 4}
    return frozenset(words), frozenset(five), frozenset(four)


_GATE_WORDS, _GATE_FIVE, _GATE_FOUR = _gate()
# For the ASCII gate only (not for is_english): more English words that no lexicon above spells the same.
_ENGLISH_BYTES: Final = frozenset(
    word.encode()
    for word in (
        *_ENGLISH,
        *("returns", "return", "from", "by", "be", "if", "when", "which", "where", "what", "how", "its"),
        *("their", "into", "will", "can", "should", "use", "using", "given", "get", "gets", "list", "lists"),
        *("create", "creates", "show", "shows", "number", "nothing", "optional", "look", "name", "path"),
        *("file", "files", "query", "results", "value", "string", "id", "page", "data", "new", "default"),
    )
)


WORD: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
"""A word as the scan reads one (letters and digits, with one inner apostrophe: ``don't``, ``l'utente``)."""


def maybe_foreign(text: str, split: Iterable[bytes], words: list[str] | None = None) -> bool:
    """Whether a sentence of ``text`` may hold a trigger group's word of another language. Never ``False``
    when one does, but for one bound on cost: in an ASCII text that holds an English function word only the
    whole words are looked for, not the stems. ``split``: the lower-cased ASCII words of an ASCII
    ``text``, as bytes; ``words``: those of a text that is not ASCII, if the caller has found them."""
    if not text.isascii():
        if _UNSPACED.search(text) and _FRAGMENT_RE.search(text):
            return True
        if words is None:
            words = WORD.findall(text.lower())
        return not TRIGGER_GROUPS.isdisjoint(foreign_groups(text, words))
    split = list(split)
    if not _GATE_WORDS.isdisjoint(split):
        return True
    if not _ENGLISH_BYTES.isdisjoint(split):
        # Cost (the 10,000-tool benchmark): an ASCII text with English function words is read for the
        # other languages' whole trigger words only (gebruiker, pengguna, niet ...), not for their stems.
        return False
    return not _GATE_FIVE.isdisjoint([word[:5] for word in split]) or not _GATE_FOUR.isdisjoint(
        [word[:4] for word in split]
    )
