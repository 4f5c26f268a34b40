/**
 * Lucene's GreekStemmer (Ntais' algorithm, as Lucene implements it, quirks included: rule 0's
 * fifth group tests its length only with its first suffix), ported from Lucene's compiled
 * class. It expects terms lower-cased by the Greek lower-case filter (no tonos, σ for ς).
 */
import { bufferStemmer, endsWith } from './chars.js';

const EXC_4 = new Set(['θ', 'δ', 'ελ', 'γαλ', 'ν', 'π', 'ιδ', 'παρ']);
const EXC_6 = new Set(['αλ', 'αδ', 'ενδ', 'αμαν', 'αμμοχαλ', 'ηθ', 'ανηθ', 'αντιδ', 'φυσ', 'βρωμ', 'γερ', 'εξωδ',
  'καλπ', 'καλλιν', 'καταδ', 'μουλ', 'μπαν', 'μπαγιατ', 'μπολ', 'μποσ', 'νιτ', 'ξικ', 'συνομηλ', 'πετσ', 'πιτσ',
  'πικαντ', 'πλιατσ', 'ποστελν', 'πρωτοδ', 'σερτ', 'συναδ', 'τσαμ', 'υποδ', 'φιλον', 'φυλοδ', 'χασ']);
const EXC_7 = new Set(['αναπ', 'αποθ', 'αποκ', 'αποστ', 'βουβ', 'ξεθ', 'ουλ', 'πεθ', 'πικρ', 'ποτ', 'σιχ', 'χ']);
const EXC_8A = new Set(['τρ', 'τσ']);
const EXC_8B = new Set(['βετερ', 'βουλκ', 'βραχμ', 'γ', 'δραδουμ', 'θ', 'καλπουζ', 'καστελ', 'κορμορ', 'λαοπλ',
  'μωαμεθ', 'μ', 'μουσουλμ', 'ν', 'ουλ', 'π', 'πελεκ', 'πλ', 'πολισ', 'πορτολ', 'σαρακατσ', 'σουλτ', 'τσαρλατ',
  'ορφ', 'τσιγγ', 'τσοπ', 'φωτοστεφ', 'χ', 'ψυχοπλ', 'αγ', 'ορφ', 'γαλ', 'γερ', 'δεκ', 'διπλ', 'αμερικαν', 'ουρ',
  'πιθ', 'πουριτ', 'σ', 'ζωντ', 'ικ', 'καστ', 'κοπ', 'λιχ', 'λουθηρ', 'μαιντ', 'μελ', 'σιγ', 'σπ', 'στεγ', 'τραγ',
  'τσαγ', 'φ', 'ερ', 'αδαπ', 'αθιγγ', 'αμηχ', 'ανικ', 'ανοργ', 'απηγ', 'απιθ', 'ατσιγγ', 'βασ', 'βασκ', 'βαθυγαλ',
  'βιομηχ', 'βραχυκ', 'διατ', 'διαφ', 'ενοργ', 'θυσ', 'καπνοβιομηχ', 'καταγαλ', 'κλιβ', 'κοιλαρφ', 'λιβ',
  'μεγλοβιομηχ', 'μικροβιομηχ', 'νταβ', 'ξηροκλιβ', 'ολιγοδαμ', 'ολογαλ', 'πενταρφ', 'περηφ', 'περιτρ', 'πλατ',
  'πολυδαπ', 'πολυμηχ', 'στεφ', 'ταβ', 'τετ', 'υπερηφ', 'υποκοπ', 'χαμηλοδαπ', 'ψηλοταβ']);
const EXC_9 = new Set(['αβαρ', 'βεν', 'εναρ', 'αβρ', 'αδ', 'αθ', 'αν', 'απλ', 'βαρον', 'ντρ', 'σκ', 'κοπ', 'μπορ',
  'νιφ', 'παγ', 'παρακαλ', 'σερπ', 'σκελ', 'συρφ', 'τοκ', 'υ', 'δ', 'εμ', 'θαρρ', 'θ']);
const EXC_12A = new Set(['π', 'απ', 'συμπ', 'ασυμπ', 'ακαταπ', 'αμεταμφ']);
const EXC_12B = new Set(['αλ', 'αρ', 'εκτελ', 'ζ', 'μ', 'ξ', 'παρακαλ', 'αρ', 'προ', 'νισ']);
const EXC_13 = new Set(['διαθ', 'θ', 'παρακαταθ', 'προσθ', 'συνθ']);
const EXC_14 = new Set(['φαρμακ', 'χαδ', 'αγκ', 'αναρρ', 'βρομ', 'εκλιπ', 'λαμπιδ', 'λεχ', 'μ', 'πατ', 'ρ', 'λ',
  'μεδ', 'μεσαζ', 'υποτειν', 'αμ', 'αιθ', 'ανηκ', 'δεσποζ', 'ενδιαφερ', 'δε', 'δευτερευ', 'καθαρευ', 'πλε', 'τσα']);
const EXC_15A = new Set(['αβαστ', 'πολυφ', 'αδηφ', 'παμφ', 'ρ', 'ασπ', 'αφ', 'αμαλ', 'αμαλλι', 'ανυστ', 'απερ',
  'ασπαρ', 'αχαρ', 'δερβεν', 'δροσοπ', 'ξεφ', 'νεοπ', 'νομοτ', 'ολοπ', 'ομοτ', 'προστ', 'προσωποπ', 'συμπ', 'συντ',
  'τ', 'υποτ', 'χαρ', 'αειπ', 'αιμοστ', 'ανυπ', 'αποτ', 'αρτιπ', 'διατ', 'εν', 'επιτ', 'κροκαλοπ', 'σιδηροπ', 'λ',
  'ναυ', 'ουλαμ', 'ουρ', 'π', 'τρ', 'μ']);
const EXC_15B = new Set(['ψοφ', 'ναυλοχ']);
const EXC_16 = new Set(['ν', 'χερσον', 'δωδεκαν', 'ερημον', 'μεγαλον', 'επταν']);
const EXC_17 = new Set(['ασβ', 'σβ', 'αχρ', 'χρ', 'απλ', 'αειμν', 'δυσχρ', 'ευχρ', 'κοινοχρ', 'παλιμψ']);
const EXC_18 = new Set(['ν', 'ρ', 'σπι', 'στραβομουτσ', 'κακομουτσ', 'εξων']);
const EXC_19 = new Set(['παρασουσ', 'φ', 'χ', 'ωριοπλ', 'αζ', 'αλλοσουσ', 'ασουσ']);

function endsWithAny(s: string[], len: number, suffixes: readonly string[]): boolean {
  return suffixes.some((x) => endsWith(s, len, x));
}

function has(set: ReadonlySet<string>, s: string[], len: number): boolean {
  return set.has(s.slice(0, len).join(''));
}

function endsWithVowel(s: string[], len: number): boolean {
  return len > 0 && 'αεηιουω'.includes(s[len - 1]);
}

function endsWithVowelNoY(s: string[], len: number): boolean {
  return len > 0 && 'αεηιοω'.includes(s[len - 1]);
}

function stem(s: string[], len: number): number {
  if (len < 4) {
    return len;
  }
  const origLen = len;
  len = rule0(s, len);
  len = rule1(s, len);
  len = rule2(s, len);
  len = rule3(s, len);
  len = rule4(s, len);
  len = rule5(s, len);
  len = rule6(s, len);
  len = rule7(s, len);
  len = rule8(s, len);
  len = rule9(s, len);
  len = rule10(s, len);
  len = rule11(s, len);
  len = rule12(s, len);
  len = rule13(s, len);
  len = rule14(s, len);
  len = rule15(s, len);
  len = rule16(s, len);
  len = rule17(s, len);
  len = rule18(s, len);
  len = rule19(s, len);
  len = rule20(s, len);
  if (len === origLen) {
    len = rule21(s, len);
  }
  return rule22(s, len);
}

function rule0(s: string[], len: number): number {
  if (len > 9 && (endsWithAny(s, len, ['καθεστωτοσ', 'καθεστωτων']))) {
    return len - 4;
  }
  if (len > 8 && (endsWithAny(s, len, ['γεγονοτοσ', 'γεγονοτων']))) {
    return len - 4;
  }
  if (len > 8 && endsWith(s, len, 'καθεστωτα')) {
    return len - 3;
  }
  if (len > 7 && (endsWithAny(s, len, ['τατογιου', 'τατογιων']))) {
    return len - 4;
  }
  if (len > 7 && endsWith(s, len, 'γεγονοτα')) {
    return len - 3;
  }
  if (len > 7 && endsWith(s, len, 'καθεστωσ')) {
    return len - 2;
  }
  if ((len > 6 && endsWith(s, len, 'σκαγιου')) || endsWithAny(s, len, ['σκαγιων', 'ολογιου', 'ολογιων', 'κρεατοσ', 'κρεατων', 'περατοσ', 'περατων', 'τερατοσ', 'τερατων'])) {
    return len - 4;
  }
  if (len > 6 && endsWith(s, len, 'τατογια')) {
    return len - 3;
  }
  if (len > 6 && endsWith(s, len, 'γεγονοσ')) {
    return len - 2;
  }
  if (len > 5 && (endsWithAny(s, len, ['φαγιου', 'φαγιων', 'σογιου', 'σογιων']))) {
    return len - 4;
  }
  if (len > 5 && (endsWithAny(s, len, ['σκαγια', 'ολογια', 'κρεατα', 'περατα', 'τερατα']))) {
    return len - 3;
  }
  if (len > 4 && (endsWithAny(s, len, ['φαγια', 'σογια', 'φωτοσ', 'φωτων']))) {
    return len - 3;
  }
  if (len > 4 && (endsWithAny(s, len, ['κρεασ', 'περασ', 'τερασ']))) {
    return len - 2;
  }
  if (len > 3 && endsWith(s, len, 'φωτα')) {
    return len - 2;
  }
  if (len > 2 && endsWith(s, len, 'φωσ')) {
    return len - 1;
  }
  return len;
}

function rule1(s: string[], len: number): number {
  if (len > 4 && (endsWithAny(s, len, ['αδεσ', 'αδων']))) {
    len -= 4;
    if (!endsWith(s, len, 'οκ') && !endsWith(s, len, 'μαμ') && !endsWith(s, len, 'μαν') && !endsWith(s, len, 'μπαμπ') && !endsWith(s, len, 'πατερ') && !endsWith(s, len, 'γιαγι') && !endsWith(s, len, 'νταντ') && !endsWith(s, len, 'κυρ') && !endsWith(s, len, 'θει') && !endsWith(s, len, 'πεθερ')) {
      len += 2;
    }
  }
  return len;
}

function rule2(s: string[], len: number): number {
  if (len > 4 && (endsWithAny(s, len, ['εδεσ', 'εδων']))) {
    len -= 4;
    if (endsWithAny(s, len, ['οπ', 'ιπ', 'εμπ', 'υπ', 'γηπ', 'δαπ', 'κρασπ', 'μιλ'])) {
      len += 2;
    }
  }
  return len;
}

function rule3(s: string[], len: number): number {
  if (len > 5 && (endsWithAny(s, len, ['ουδεσ', 'ουδων']))) {
    len -= 5;
    if (endsWithAny(s, len, ['αρκ', 'καλιακ', 'πεταλ', 'λιχ', 'πλεξ', 'σκ', 'σ', 'φλ', 'φρ', 'βελ', 'λουλ', 'χν', 'σπ', 'τραγ', 'φε'])) {
      len += 3;
    }
  }
  return len;
}

function rule4(s: string[], len: number): number {
  if (len > 3 && (endsWithAny(s, len, ['εωσ', 'εων']))) {
    len -= 3;
    if (has(EXC_4, s, len)) {
      ++len;
    }
  }
  return len;
}

function rule5(s: string[], len: number): number {
  if (len > 2 && endsWith(s, len, 'ια')) {
    len -= 2;
    if (endsWithVowel(s, len)) {
      ++len;
    }
  } else if (len > 3 && (endsWithAny(s, len, ['ιου', 'ιων']))) {
    len -= 3;
    if (endsWithVowel(s, len)) {
      ++len;
    }
  }
  return len;
}

function rule6(s: string[], len: number): number {
  let removed = false;
  if (len > 3 && (endsWithAny(s, len, ['ικα', 'ικο']))) {
    len -= 3;
    removed = true;
  } else if (len > 4 && (endsWithAny(s, len, ['ικου', 'ικων']))) {
    len -= 4;
    removed = true;
  }
  if (removed && (endsWithVowel(s, len) || has(EXC_6, s, len))) {
    len += 2;
  }
  return len;
}

function rule7(s: string[], len: number): number {
  if (len === 5 && endsWith(s, len, 'αγαμε')) {
    return len - 1;
  }
  if (len > 7 && endsWith(s, len, 'ηθηκαμε')) {
    len -= 7;
  } else if (len > 6 && endsWith(s, len, 'ουσαμε')) {
    len -= 6;
  } else if (len > 5 && (endsWithAny(s, len, ['αγαμε', 'ησαμε', 'ηκαμε']))) {
    len -= 5;
  }
  if (len > 3 && endsWith(s, len, 'αμε')) {
    len -= 3;
    if (has(EXC_7, s, len)) {
      len += 2;
    }
  }
  return len;
}

function rule8(s: string[], len: number): number {
  let removed = false;
  if (len > 8 && endsWith(s, len, 'ιουντανε')) {
    len -= 8;
    removed = true;
  } else if ((len > 7 && endsWith(s, len, 'ιοντανε')) || endsWithAny(s, len, ['ουντανε', 'ηθηκανε'])) {
    len -= 7;
    removed = true;
  } else if ((len > 6 && endsWith(s, len, 'ιοτανε')) || endsWithAny(s, len, ['οντανε', 'ουσανε'])) {
    len -= 6;
    removed = true;
  } else if ((len > 5 && endsWith(s, len, 'αγανε')) || endsWithAny(s, len, ['ησανε', 'οτανε', 'ηκανε'])) {
    len -= 5;
    removed = true;
  }
  if (removed && has(EXC_8A, s, len)) {
    len += 4;
    s[len - 4] = 'α';
    s[len - 3] = 'γ';
    s[len - 2] = 'α';
    s[len - 1] = 'ν';
  }
  if (len > 3 && endsWith(s, len, 'ανε')) {
    len -= 3;
    if (endsWithVowelNoY(s, len) || has(EXC_8B, s, len)) {
      len += 2;
    }
  }
  return len;
}

function rule9(s: string[], len: number): number {
  if (len > 5 && endsWith(s, len, 'ησετε')) {
    len -= 5;
  }
  if (len > 3 && endsWith(s, len, 'ετε')) {
    len -= 3;
    if (has(EXC_9, s, len) || endsWithVowelNoY(s, len) || endsWithAny(s, len, ['οδ', 'αιρ', 'φορ', 'ταθ', 'διαθ', 'σχ', 'ενδ', 'ευρ', 'τιθ', 'υπερθ', 'ραθ', 'ενθ', 'ροθ', 'σθ', 'πυρ', 'αιν', 'συνδ', 'συν', 'συνθ', 'χωρ', 'πον', 'βρ', 'καθ', 'ευθ', 'εκθ', 'νετ', 'ρον', 'αρκ', 'βαρ', 'βολ', 'ωφελ'])) {
      len += 2;
    }
  }
  return len;
}

function rule10(s: string[], len: number): number {
  if (len > 5 && (endsWithAny(s, len, ['οντασ', 'ωντασ']))) {
    len -= 5;
    if (len === 3 && endsWith(s, len, 'αρχ')) {
      len += 3;
      s[len - 3] = 'ο';
    }
    if (endsWith(s, len, 'κρε')) {
      len += 3;
      s[len - 3] = 'ω';
    }
  }
  return len;
}

function rule11(s: string[], len: number): number {
  if (len > 6 && endsWith(s, len, 'ομαστε')) {
    len -= 6;
    if (len === 2 && endsWith(s, len, 'ον')) {
      len += 5;
    }
  } else if (len > 7 && endsWith(s, len, 'ιομαστε')) {
    len -= 7;
    if (len === 2 && endsWith(s, len, 'ον')) {
      len += 5;
      s[len - 5] = 'ο';
      s[len - 4] = 'μ';
      s[len - 3] = 'α';
      s[len - 2] = 'σ';
      s[len - 1] = 'τ';
    }
  }
  return len;
}

function rule12(s: string[], len: number): number {
  if (len > 5 && endsWith(s, len, 'ιεστε')) {
    len -= 5;
    if (has(EXC_12A, s, len)) {
      len += 4;
    }
  }
  if (len > 4 && endsWith(s, len, 'εστε')) {
    len -= 4;
    if (has(EXC_12B, s, len)) {
      len += 3;
    }
  }
  return len;
}

function rule13(s: string[], len: number): number {
  if (len > 6 && endsWith(s, len, 'ηθηκεσ')) {
    len -= 6;
  } else if (len > 5 && (endsWithAny(s, len, ['ηθηκα', 'ηθηκε']))) {
    len -= 5;
  }
  let removed = false;
  if (len > 4 && endsWith(s, len, 'ηκεσ')) {
    len -= 4;
    removed = true;
  } else if (len > 3 && (endsWithAny(s, len, ['ηκα', 'ηκε']))) {
    len -= 3;
    removed = true;
  }
  if (removed && (has(EXC_13, s, len) || endsWithAny(s, len, ['σκωλ', 'σκουλ', 'ναρθ', 'σφ', 'οθ', 'πιθ']))) {
    len += 2;
  }
  return len;
}

function rule14(s: string[], len: number): number {
  let removed = false;
  if (len > 5 && endsWith(s, len, 'ουσεσ')) {
    len -= 5;
    removed = true;
  } else if (len > 4 && (endsWithAny(s, len, ['ουσα', 'ουσε']))) {
    len -= 4;
    removed = true;
  }
  if (removed && (has(EXC_14, s, len) || endsWithVowel(s, len) || endsWithAny(s, len, ['ποδαρ', 'βλεπ', 'πανταχ', 'φρυδ', 'μαντιλ', 'μαλλ', 'κυματ', 'λαχ', 'ληγ', 'φαγ', 'ομ', 'πρωτ']))) {
    len += 3;
  }
  return len;
}

function rule15(s: string[], len: number): number {
  let removed = false;
  if (len > 4 && endsWith(s, len, 'αγεσ')) {
    len -= 4;
    removed = true;
  } else if (len > 3 && (endsWithAny(s, len, ['αγα', 'αγε']))) {
    len -= 3;
    removed = true;
  }
  if (removed) {
    const cond1 = has(EXC_15A, s, len) || endsWithAny(s, len, ['οφ', 'πελ', 'χορτ', 'λλ', 'σφ', 'ρπ', 'φρ', 'πρ', 'λοχ', 'σμην']);
    const cond2 = has(EXC_15B, s, len) || endsWith(s, len, 'κολλ');
    if (cond1 && !cond2) {
      len += 2;
    }
  }
  return len;
}

function rule16(s: string[], len: number): number {
  let removed = false;
  if (len > 4 && endsWith(s, len, 'ησου')) {
    len -= 4;
    removed = true;
  } else if (len > 3 && (endsWithAny(s, len, ['ησε', 'ησα']))) {
    len -= 3;
    removed = true;
  }
  if (removed && has(EXC_16, s, len)) {
    len += 2;
  }
  return len;
}

function rule17(s: string[], len: number): number {
  if (len > 4 && endsWith(s, len, 'ηστε')) {
    len -= 4;
    if (has(EXC_17, s, len)) {
      len += 3;
    }
  }
  return len;
}

function rule18(s: string[], len: number): number {
  let removed = false;
  if (len > 6 && (endsWithAny(s, len, ['ησουνε', 'ηθουνε']))) {
    len -= 6;
    removed = true;
  } else if (len > 4 && endsWith(s, len, 'ουνε')) {
    len -= 4;
    removed = true;
  }
  if (removed && has(EXC_18, s, len)) {
    len += 3;
    s[len - 3] = 'ο';
    s[len - 2] = 'υ';
    s[len - 1] = 'ν';
  }
  return len;
}

function rule19(s: string[], len: number): number {
  let removed = false;
  if (len > 6 && (endsWithAny(s, len, ['ησουμε', 'ηθουμε']))) {
    len -= 6;
    removed = true;
  } else if (len > 4 && endsWith(s, len, 'ουμε')) {
    len -= 4;
    removed = true;
  }
  if (removed && has(EXC_19, s, len)) {
    len += 3;
    s[len - 3] = 'ο';
    s[len - 2] = 'υ';
    s[len - 1] = 'μ';
  }
  return len;
}

function rule20(s: string[], len: number): number {
  if (len > 5 && (endsWithAny(s, len, ['ματων', 'ματοσ']))) {
    len -= 3;
  } else if (len > 4 && endsWith(s, len, 'ματα')) {
    len -= 2;
  }
  return len;
}

function rule21(s: string[], len: number): number {
  if (len > 9 && endsWith(s, len, 'ιοντουσαν')) {
    return len - 9;
  }
  if (len > 8 && (endsWithAny(s, len, ['ιομασταν', 'ιοσασταν', 'ιουμαστε', 'οντουσαν']))) {
    return len - 8;
  }
  if (len > 7 && (endsWithAny(s, len, ['ιεμαστε', 'ιεσαστε', 'ιομουνα', 'ιοσαστε', 'ιοσουνα', 'ιουνται', 'ιουνταν', 'ηθηκατε', 'ομασταν', 'οσασταν', 'ουμαστε']))) {
    return len - 7;
  }
  if (len > 6 && (endsWithAny(s, len, ['ιομουν', 'ιονταν', 'ιοσουν', 'ηθειτε', 'ηθηκαν', 'ομουνα', 'οσαστε', 'οσουνα', 'ουνται', 'ουνταν', 'ουσατε']))) {
    return len - 6;
  }
  if (len > 5 && (endsWithAny(s, len, ['αγατε', 'ιεμαι', 'ιεται', 'ιεσαι', 'ιοταν', 'ιουμα', 'ηθεισ', 'ηθουν', 'ηκατε', 'ησατε', 'ησουν', 'ομουν', 'ονται', 'ονταν', 'οσουν', 'ουμαι', 'ουσαν']))) {
    return len - 5;
  }
  if (len > 4 && (endsWithAny(s, len, ['αγαν', 'αμαι', 'ασαι', 'αται', 'ειτε', 'εσαι', 'εται', 'ηδεσ', 'ηδων', 'ηθει', 'ηκαν', 'ησαν', 'ησει', 'ησεσ', 'ομαι', 'οταν']))) {
    return len - 4;
  }
  if (len > 3 && (endsWithAny(s, len, ['αει', 'εισ', 'ηθω', 'ησω', 'ουν', 'ουσ']))) {
    return len - 3;
  }
  if (len > 2 && (endsWithAny(s, len, ['αν', 'ασ', 'αω', 'ει', 'εσ', 'ησ', 'οι', 'οσ', 'ου', 'υσ', 'ων']))) {
    return len - 2;
  }
  if (len > 1 && endsWithVowel(s, len)) {
    return len - 1;
  }
  return len;
}

function rule22(s: string[], len: number): number {
  if (endsWithAny(s, len, ['εστερ', 'εστατ'])) {
    return len - 5;
  }
  if (endsWithAny(s, len, ['οτερ', 'οτατ', 'υτερ', 'υτατ', 'ωτερ', 'ωτατ'])) {
    return len - 4;
  }
  return len;
}

export const greekStem = bufferStemmer(stem);
