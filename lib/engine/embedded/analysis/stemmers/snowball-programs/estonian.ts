/**
 * Snowball's Estonian stemmer as Lucene ships it (org.tartarus.snowball.ext.EstonianStemmer), ported from
 * Lucene's class onto ./program.ts. Generated code: its routines keep their Snowball names.
 */
import { among, SnowballProgram, type Among } from './program.js';

const A_0: ReadonlyArray<Among<EstonianStemmer>> = [among('gi', -1, 1), among('ki', -1, 2)];
const A_1: ReadonlyArray<Among<EstonianStemmer>> = [among('da', -1, 11), among('mata', -1, 3), among('b', -1, 13),
  among('ksid', -1, 2), among('nuksid', 3, 1), among('me', -1, 10), among('sime', 5, 7), among('ksime', 6, 2),
  among('nuksime', 7, 1), among('akse', -1, 6), among('dakse', 9, 4), among('takse', 9, 4), among('site', -1, 8),
  among('ksite', 12, 2), among('nuksite', 13, 1), among('n', -1, 12), among('sin', 15, 9), among('ksin', 16, 2),
  among('nuksin', 17, 1), among('daks', -1, 5), among('taks', -1, 5)];
const A_2: ReadonlyArray<Among<EstonianStemmer>> = [among('aa', -1, -1), among('ee', -1, -1), among('ii', -1, -1),
  among('oo', -1, -1), among('uu', -1, -1), among('ää', -1, -1), among('õõ', -1, -1), among('öö', -1, -1),
  among('üü', -1, -1)];
const A_3: ReadonlyArray<Among<EstonianStemmer>> = [among('i', -1, 1)];
const A_4: ReadonlyArray<Among<EstonianStemmer>> = [among('lane', -1, 3), among('line', -1, 11),
  among('mine', -1, 7), among('lasse', -1, 1), among('lisse', -1, 9), among('misse', -1, 5), among('lasi', -1, 4),
  among('lisi', -1, 12), among('misi', -1, 8), among('last', -1, 2), among('list', -1, 10), among('mist', -1, 6)];
const A_5: ReadonlyArray<Among<EstonianStemmer>> = [among('ga', -1, 5), among('ta', -1, 7), among('le', -1, 3),
  among('sse', -1, 1), among('l', -1, 9), among('s', -1, 8), among('ks', 5, 6), among('t', -1, 8), among('lt', 7, 4),
  among('st', 7, 2)];
const A_6: ReadonlyArray<Among<EstonianStemmer>> = [among('d', -1, 7), among('sid', 0, 4), among('de', -1, 6),
  among('ikkude', 2, 1), among('ike', -1, 3), among('ikke', -1, 2), among('te', -1, 5)];
const A_7: ReadonlyArray<Among<EstonianStemmer>> = [among('kk', -1, -1), among('pp', -1, -1), among('tt', -1, -1)];
const A_8: ReadonlyArray<Among<EstonianStemmer>> = [among('va', -1, -1), among('du', -1, -1), among('nu', -1, -1),
  among('tu', -1, -1)];
const A_9: ReadonlyArray<Among<EstonianStemmer>> = [among('ma', -1, 2), among('mai', -1, 1), among('m', -1, 3)];
const A_10: ReadonlyArray<Among<EstonianStemmer>> = [among('joob', -1, 1), among('jood', -1, 1),
  among('joodakse', 1, 3), among('jooma', -1, 3), among('joomata', 3, 3), among('joome', -1, 1),
  among('joon', -1, 1), among('joote', -1, 1), among('joovad', -1, 1), among('juua', -1, 3), among('juuakse', 9, 3),
  among('jäi', -1, 38), among('jäid', 11, 38), among('jäime', 11, 38), among('jäin', 11, 38), among('jäite', 11, 38),
  among('jääb', -1, 36), among('jääd', -1, 36), among('jääda', 17, 39), among('jäädakse', 18, 39),
  among('jäädi', 17, 39), among('jääks', -1, 37), among('jääksid', 21, 37), among('jääksime', 21, 37),
  among('jääksin', 21, 37), among('jääksite', 21, 37), among('jääma', -1, 39), among('jäämata', 26, 39),
  among('jääme', -1, 36), among('jään', -1, 36), among('jääte', -1, 36), among('jäävad', -1, 36),
  among('jõi', -1, 2), among('jõid', 32, 2), among('jõime', 32, 2), among('jõin', 32, 2), among('jõite', 32, 2),
  among('keeb', -1, 12), among('keed', -1, 12), among('keedakse', 38, 14), among('keeks', -1, 13),
  among('keeksid', 40, 13), among('keeksime', 40, 13), among('keeksin', 40, 13), among('keeksite', 40, 13),
  among('keema', -1, 14), among('keemata', 45, 14), among('keeme', -1, 12), among('keen', -1, 12),
  among('kees', -1, 12), among('keeta', -1, 14), among('keete', -1, 12), among('keevad', -1, 12),
  among('käia', -1, 24), among('käiakse', 53, 24), among('käib', -1, 22), among('käid', -1, 22),
  among('käidi', 56, 24), among('käiks', -1, 23), among('käiksid', 58, 23), among('käiksime', 58, 23),
  among('käiksin', 58, 23), among('käiksite', 58, 23), among('käima', -1, 24), among('käimata', 63, 24),
  among('käime', -1, 22), among('käin', -1, 22), among('käis', -1, 22), among('käite', -1, 22),
  among('käivad', -1, 22), among('laob', -1, 47), among('laod', -1, 47), among('laoks', -1, 48),
  among('laoksid', 72, 48), among('laoksime', 72, 48), among('laoksin', 72, 48), among('laoksite', 72, 48),
  among('laome', -1, 47), among('laon', -1, 47), among('laote', -1, 47), among('laovad', -1, 47),
  among('loeb', -1, 43), among('loed', -1, 43), among('loeks', -1, 44), among('loeksid', 83, 44),
  among('loeksime', 83, 44), among('loeksin', 83, 44), among('loeksite', 83, 44), among('loeme', -1, 43),
  among('loen', -1, 43), among('loete', -1, 43), among('loevad', -1, 43), among('loob', -1, 19),
  among('lood', -1, 19), among('loodi', 93, 21), among('looks', -1, 20), among('looksid', 95, 20),
  among('looksime', 95, 20), among('looksin', 95, 20), among('looksite', 95, 20), among('looma', -1, 21),
  among('loomata', 100, 21), among('loome', -1, 19), among('loon', -1, 19), among('loote', -1, 19),
  among('loovad', -1, 19), among('luua', -1, 21), among('luuakse', 106, 21), among('lõi', -1, 18),
  among('lõid', 108, 18), among('lõime', 108, 18), among('lõin', 108, 18), among('lõite', 108, 18),
  among('lööb', -1, 15), among('lööd', -1, 15), among('löödakse', 114, 17), among('löödi', 114, 17),
  among('lööks', -1, 16), among('lööksid', 117, 16), among('lööksime', 117, 16), among('lööksin', 117, 16),
  among('lööksite', 117, 16), among('lööma', -1, 17), among('löömata', 122, 17), among('lööme', -1, 15),
  among('löön', -1, 15), among('lööte', -1, 15), among('löövad', -1, 15), among('lüüa', -1, 17),
  among('lüüakse', 128, 17), among('müüa', -1, 42), among('müüakse', 130, 42), among('müüb', -1, 40),
  among('müüd', -1, 40), among('müüdi', 133, 42), among('müüks', -1, 41), among('müüksid', 135, 41),
  among('müüksime', 135, 41), among('müüksin', 135, 41), among('müüksite', 135, 41), among('müüma', -1, 42),
  among('müümata', 140, 42), among('müüme', -1, 40), among('müün', -1, 40), among('müüs', -1, 40),
  among('müüte', -1, 40), among('müüvad', -1, 40), among('näeb', -1, 52), among('näed', -1, 52),
  among('näeks', -1, 53), among('näeksid', 149, 53), among('näeksime', 149, 53), among('näeksin', 149, 53),
  among('näeksite', 149, 53), among('näeme', -1, 52), among('näen', -1, 52), among('näete', -1, 52),
  among('näevad', -1, 52), among('nägema', -1, 54), among('nägemata', 158, 54), among('näha', -1, 54),
  among('nähakse', 160, 54), among('nähti', -1, 54), among('põeb', -1, 45), among('põed', -1, 45),
  among('põeks', -1, 46), among('põeksid', 165, 46), among('põeksime', 165, 46), among('põeksin', 165, 46),
  among('põeksite', 165, 46), among('põeme', -1, 45), among('põen', -1, 45), among('põete', -1, 45),
  among('põevad', -1, 45), among('saab', -1, 4), among('saad', -1, 4), among('saada', 175, 7),
  among('saadakse', 176, 7), among('saadi', 175, 7), among('saaks', -1, 5), among('saaksid', 179, 5),
  among('saaksime', 179, 5), among('saaksin', 179, 5), among('saaksite', 179, 5), among('saama', -1, 7),
  among('saamata', 184, 7), among('saame', -1, 4), among('saan', -1, 4), among('saate', -1, 4),
  among('saavad', -1, 4), among('sai', -1, 6), among('said', 190, 6), among('saime', 190, 6), among('sain', 190, 6),
  among('saite', 190, 6), among('sõi', -1, 27), among('sõid', 195, 27), among('sõime', 195, 27),
  among('sõin', 195, 27), among('sõite', 195, 27), among('sööb', -1, 25), among('sööd', -1, 25),
  among('söödakse', 201, 28), among('söödi', 201, 28), among('sööks', -1, 26), among('sööksid', 204, 26),
  among('sööksime', 204, 26), among('sööksin', 204, 26), among('sööksite', 204, 26), among('sööma', -1, 28),
  among('söömata', 209, 28), among('sööme', -1, 25), among('söön', -1, 25), among('sööte', -1, 25),
  among('söövad', -1, 25), among('süüa', -1, 28), among('süüakse', 215, 28), among('teeb', -1, 50),
  among('teed', -1, 50), among('teeks', -1, 49), among('teeksid', 219, 49), among('teeksime', 219, 49),
  among('teeksin', 219, 49), among('teeksite', 219, 49), among('teeme', -1, 50), among('teen', -1, 50),
  among('teete', -1, 50), among('teevad', -1, 50), among('tegema', -1, 51), among('tegemata', 228, 51),
  among('teha', -1, 51), among('tehakse', 230, 51), among('tehti', -1, 51), among('toob', -1, 29),
  among('tood', -1, 29), among('toodi', 234, 32), among('tooks', -1, 30), among('tooksid', 236, 30),
  among('tooksime', 236, 30), among('tooksin', 236, 30), among('tooksite', 236, 30), among('tooma', -1, 32),
  among('toomata', 241, 32), among('toome', -1, 29), among('toon', -1, 29), among('toote', -1, 29),
  among('toovad', -1, 29), among('tuua', -1, 32), among('tuuakse', 247, 32), among('tõi', -1, 31),
  among('tõid', 249, 31), among('tõime', 249, 31), among('tõin', 249, 31), among('tõite', 249, 31),
  among('viia', -1, 11), among('viiakse', 254, 11), among('viib', -1, 8), among('viid', -1, 8),
  among('viidi', 257, 11), among('viiks', -1, 9), among('viiksid', 259, 9), among('viiksime', 259, 9),
  among('viiksin', 259, 9), among('viiksite', 259, 9), among('viima', -1, 11), among('viimata', 264, 11),
  among('viime', -1, 8), among('viin', -1, 8), among('viisime', -1, 10), among('viisin', -1, 10),
  among('viisite', -1, 10), among('viite', -1, 8), among('viivad', -1, 8), among('võib', -1, 33),
  among('võid', -1, 33), among('võida', 274, 35), among('võidakse', 275, 35), among('võidi', 274, 35),
  among('võiks', -1, 34), among('võiksid', 278, 34), among('võiksime', 278, 34), among('võiksin', 278, 34),
  among('võiksite', 278, 34), among('võima', -1, 35), among('võimata', 283, 35), among('võime', -1, 33),
  among('võin', -1, 33), among('võis', -1, 33), among('võite', -1, 33), among('võivad', -1, 33)];
const G_V1 = [17, 65, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 48, 8];
const G_RV = [17, 65, 16];
const G_KI = [117, 66, 6, 1, 0, 0, 0, 128, 0, 0, 0, 16, 8];
const G_GI = [21, 123, 243, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 48, 8];

export class EstonianStemmer extends SnowballProgram {
  private I_p1 = 0;
  private B_is_verb = false;

  r_mark_regions(): boolean {
    this.I_p1 = this.limit;
    while (true) {
      const v_1 = this.cursor;
      if (this.in_grouping(G_V1, 97, 252)) {
        this.cursor = v_1;
        while (!this.out_grouping(G_V1, 97, 252)) {
          if (this.cursor >= this.limit) {
            return false;
          }
          ++this.cursor;
        }
        this.I_p1 = this.cursor;
        return true;
      }
      this.cursor = v_1;
      if (this.cursor >= this.limit) {
        return false;
      }
      ++this.cursor;
    }
  }

  r_emphasis(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_0, 2);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    const v_3 = this.limit - this.cursor;
    const c = this.cursor - 4;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_3;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        const v_4 = this.limit - this.cursor;
        if (!this.in_grouping_b(G_GI, 97, 252)) {
          return false;
        }
        this.cursor = this.limit - v_4;
        const v_5 = this.limit - this.cursor;
        if (!this.r_LONGV()) {
          this.cursor = this.limit - v_5;
          this.slice_del();
          break;
        }
        return false;
      }
      case 2: {
        if (!this.in_grouping_b(G_KI, 98, 197)) {
          return false;
        }
        this.slice_del();
        break;
      }
    }
    return true;
  }

  r_verb(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_1, 21);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_del();
        break;
      }
      case 2: {
        this.slice_del();
        break;
      }
      case 3: {
        this.slice_del();
        break;
      }
      case 4: {
        this.slice_del();
        break;
      }
      case 5: {
        this.slice_del();
        break;
      }
      case 6: {
        this.slice_from('a');
        break;
      }
      case 7: {
        this.slice_del();
        break;
      }
      case 8: {
        this.slice_del();
        break;
      }
      case 9: {
        this.slice_del();
        break;
      }
      case 10: {
        if (!this.in_grouping_b(G_V1, 97, 252)) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 11: {
        if (!this.in_grouping_b(G_V1, 97, 252)) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 12: {
        if (!this.in_grouping_b(G_V1, 97, 252)) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 13: {
        if (!this.in_grouping_b(G_V1, 97, 252)) {
          return false;
        }
        this.slice_del();
        break;
      }
    }
    return this.B_is_verb = true;
  }

  r_LONGV(): boolean {
    return this.find_among_b(A_2, 9) !== 0;
  }

  r_i_plural(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_3, 1);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        if (!this.in_grouping_b(G_RV, 97, 117)) {
          return false;
        }
        break;
      }
    }
    this.slice_del();
    return true;
  }

  r_special_noun_endings(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_4, 12);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('lase');
        break;
      }
      case 2: {
        this.slice_from('lase');
        break;
      }
      case 3: {
        this.slice_from('lase');
        break;
      }
      case 4: {
        this.slice_from('lase');
        break;
      }
      case 5: {
        this.slice_from('mise');
        break;
      }
      case 6: {
        this.slice_from('mise');
        break;
      }
      case 7: {
        this.slice_from('mise');
        break;
      }
      case 8: {
        this.slice_from('mise');
        break;
      }
      case 9: {
        this.slice_from('lise');
        break;
      }
      case 10: {
        this.slice_from('lise');
        break;
      }
      case 11: {
        this.slice_from('lise');
        break;
      }
      case 12: {
        this.slice_from('lise');
        break;
      }
    }
    return true;
  }

  r_case_ending(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_5, 10);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        const v_3 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_3;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 2: {
        const v_4 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_4;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 3: {
        const v_5 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_5;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 4: {
        const v_6 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_6;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 5: {
        const v_7 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_7;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 6: {
        const v_8 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_8;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 7: {
        const v_9 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_9;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 8: {
        const v_10 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_10;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
      case 9: {
        const v_11 = this.limit - this.cursor;
        if (this.in_grouping_b(G_RV, 97, 117)) {
          break;
        }
        this.cursor = this.limit - v_11;
        if (!this.r_LONGV()) {
          return false;
        }
        break;
      }
    }
    this.slice_del();
    return true;
  }

  r_plural_three_first_cases(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_6, 7);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('iku');
        break;
      }
      case 2: {
        this.slice_from('iku');
        break;
      }
      case 3: {
        this.slice_from('iku');
        break;
      }
      case 4: {
        const v_3 = this.limit - this.cursor;
        if (!this.r_LONGV()) {
          this.cursor = this.limit - v_3;
          this.slice_del();
          break;
        }
        return false;
      }
      case 5: {
        const v_4 = this.limit - this.cursor;
        const v_5 = this.limit - this.cursor;
        const c = this.cursor - 4;
        if (this.limit_backward <= c) {
          if (c <= this.limit) {
            this.cursor = c;
            this.cursor = this.limit - v_5;
            const v_6 = this.limit - this.cursor;
            if (this.eq_s_b(3, 'mis')) {
              this.slice_from('e');
              break;
            }
            this.cursor = this.limit - v_6;
            if (this.eq_s_b(3, 'las')) {
              this.slice_from('e');
              break;
            }
            this.cursor = this.limit - v_6;
            if (this.eq_s_b(3, 'lis')) {
              this.slice_from('e');
              break;
            }
            this.cursor = this.limit - v_6;
            const v_7 = this.limit - this.cursor;
            if (!this.eq_s_b(1, 't')) {
              this.cursor = this.limit - v_7;
              this.slice_del();
              break;
            }
          }
        }
        this.cursor = this.limit - v_4;
        const v_8 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 't')) {
          this.cursor = this.limit - v_8;
          this.slice_from('t');
          break;
        }
        return false;
      }
      case 6: {
        const v_9 = this.limit - this.cursor;
        if (!this.in_grouping_b(G_RV, 97, 117)) {
          this.cursor = this.limit - v_9;
          if (!this.r_LONGV()) {
            return false;
          }
        }
        this.slice_del();
        break;
      }
      case 7: {
        const v_10 = this.limit - this.cursor;
        if (!this.in_grouping_b(G_RV, 97, 117)) {
          this.cursor = this.limit - v_10;
          if (!this.r_LONGV()) {
            return false;
          }
        }
        this.slice_del();
        break;
      }
    }
    return true;
  }

  r_double(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.find_among_b(A_7, 3) === 0) {
      return false;
    }
    this.cursor = this.limit - v_1;
    return true;
  }

  r_undouble(): boolean {
    if (this.cursor <= this.limit_backward) {
      return false;
    }
    --this.cursor;
    this.ket = this.cursor;
    const c = this.cursor - 1;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.bra = this.cursor;
    this.slice_del();
    return true;
  }

  r_nu(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    if (this.find_among_b(A_8, 4) === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    this.slice_del();
    return true;
  }

  r_remove_double_kpt(): boolean {
    if (!this.in_grouping_b(G_V1, 97, 252)) {
      return false;
    }
    const v_1 = this.limit - this.cursor;
    if (!this.r_double()) {
      return false;
    }
    this.cursor = this.limit - v_1;
    return this.r_undouble();
  }

  r_degrees(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor < this.I_p1) {
      return false;
    }
    this.cursor = this.I_p1;
    const v_2 = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_9, 3);
    if (among_var === 0) {
      this.limit_backward = v_2;
      return false;
    }
    this.bra = this.cursor;
    this.limit_backward = v_2;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        if (!this.in_grouping_b(G_RV, 97, 117)) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 2: {
        this.slice_del();
        break;
      }
      case 3: {
        if (!this.in_grouping_b(G_RV, 97, 117)) {
          return false;
        }
        this.slice_del();
        break;
      }
    }
    return true;
  }

  r_substantive(): boolean {
    const v_1 = this.limit - this.cursor;
    if (!this.r_special_noun_endings()) {}
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.r_case_ending()) {}
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.r_plural_three_first_cases()) {}
    this.cursor = this.limit - v_3;
    const v_4 = this.limit - this.cursor;
    if (!this.r_degrees()) {}
    this.cursor = this.limit - v_4;
    const v_5 = this.limit - this.cursor;
    if (!this.r_i_plural()) {}
    this.cursor = this.limit - v_5;
    const v_6 = this.limit - this.cursor;
    if (!this.r_nu()) {}
    this.cursor = this.limit - v_6;
    return true;
  }

  r_verb_exceptions(): boolean {
    this.bra = this.cursor;
    const among_var = this.find_among(A_10, 290);
    if (among_var === 0) {
      return false;
    }
    this.ket = this.cursor;
    if (this.cursor < this.limit) {
      return false;
    }
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('joo');
        break;
      }
      case 2: {
        this.slice_from('joo');
        break;
      }
      case 3: {
        this.slice_from('joo');
        break;
      }
      case 4: {
        this.slice_from('saa');
        break;
      }
      case 5: {
        this.slice_from('saa');
        break;
      }
      case 6: {
        this.slice_from('saa');
        break;
      }
      case 7: {
        this.slice_from('saa');
        break;
      }
      case 8: {
        this.slice_from('viima');
        break;
      }
      case 9: {
        this.slice_from('viima');
        break;
      }
      case 10: {
        this.slice_from('viima');
        break;
      }
      case 11: {
        this.slice_from('viima');
        break;
      }
      case 12: {
        this.slice_from('keesi');
        break;
      }
      case 13: {
        this.slice_from('keesi');
        break;
      }
      case 14: {
        this.slice_from('keesi');
        break;
      }
      case 15: {
        this.slice_from('löö');
        break;
      }
      case 16: {
        this.slice_from('löö');
        break;
      }
      case 17: {
        this.slice_from('löö');
        break;
      }
      case 18: {
        this.slice_from('löi');
        break;
      }
      case 19: {
        this.slice_from('loo');
        break;
      }
      case 20: {
        this.slice_from('loo');
        break;
      }
      case 21: {
        this.slice_from('loo');
        break;
      }
      case 22: {
        this.slice_from('käisi');
        break;
      }
      case 23: {
        this.slice_from('käisi');
        break;
      }
      case 24: {
        this.slice_from('käisi');
        break;
      }
      case 25: {
        this.slice_from('söö');
        break;
      }
      case 26: {
        this.slice_from('söö');
        break;
      }
      case 27: {
        this.slice_from('söö');
        break;
      }
      case 28: {
        this.slice_from('söö');
        break;
      }
      case 29: {
        this.slice_from('too');
        break;
      }
      case 30: {
        this.slice_from('too');
        break;
      }
      case 31: {
        this.slice_from('too');
        break;
      }
      case 32: {
        this.slice_from('too');
        break;
      }
      case 33: {
        this.slice_from('võisi');
        break;
      }
      case 34: {
        this.slice_from('võisi');
        break;
      }
      case 35: {
        this.slice_from('võisi');
        break;
      }
      case 36: {
        this.slice_from('jääma');
        break;
      }
      case 37: {
        this.slice_from('jääma');
        break;
      }
      case 38: {
        this.slice_from('jääma');
        break;
      }
      case 39: {
        this.slice_from('jääma');
        break;
      }
      case 40: {
        this.slice_from('müüsi');
        break;
      }
      case 41: {
        this.slice_from('müüsi');
        break;
      }
      case 42: {
        this.slice_from('müüsi');
        break;
      }
      case 43: {
        this.slice_from('luge');
        break;
      }
      case 44: {
        this.slice_from('luge');
        break;
      }
      case 45: {
        this.slice_from('põde');
        break;
      }
      case 46: {
        this.slice_from('põde');
        break;
      }
      case 47: {
        this.slice_from('ladu');
        break;
      }
      case 48: {
        this.slice_from('ladu');
        break;
      }
      case 49: {
        this.slice_from('tegi');
        break;
      }
      case 50: {
        this.slice_from('tegi');
        break;
      }
      case 51: {
        this.slice_from('tegi');
        break;
      }
      case 52: {
        this.slice_from('nägi');
        break;
      }
      case 53: {
        this.slice_from('nägi');
        break;
      }
      case 54: {
        this.slice_from('nägi');
        break;
      }
    }
    return true;
  }

  override stem(): boolean {
    const v_1 = this.cursor;
    if (!this.r_mark_regions()) {}
    this.cursor = v_1;
    const v_2 = this.cursor;
    if (!this.r_verb_exceptions()) {
      this.cursor = v_2;
      this.B_is_verb = false;
      this.limit_backward = this.cursor;
      this.cursor = this.limit;
      const v_3 = this.limit - this.cursor;
      if (!this.r_emphasis()) {}
      this.cursor = this.limit - v_3;
      const v_4 = this.limit - this.cursor;
      if (!this.r_verb()) {}
      this.cursor = this.limit - v_4;
      const v_5 = this.limit - this.cursor;
      if (!this.B_is_verb) {
        const v_6 = this.limit - this.cursor;
        if (!this.r_substantive()) {}
        this.cursor = this.limit - v_6;
      } else {
        this.cursor = this.limit - v_5;
      }
      const v_7 = this.limit - this.cursor;
      if (!this.r_remove_double_kpt()) {}
      this.cursor = this.limit - v_7;
      this.cursor = this.limit_backward;
      return true;
    }
    return false;
  }
}
