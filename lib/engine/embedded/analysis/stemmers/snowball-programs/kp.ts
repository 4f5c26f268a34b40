/**
 * Snowball's Kp stemmer as Lucene ships it (org.tartarus.snowball.ext.KpStemmer), ported from
 * Lucene's class onto ./program.ts. Generated code: its routines keep their Snowball names.
 */
import { among, SnowballProgram, type Among } from './program.js';

const A_0: ReadonlyArray<Among<KpStemmer>> = [among('nde', -1, 7), among('en', -1, 6), among('s', -1, 2),
  among('\'s', 2, 1), among('es', 2, 4), among('ies', 4, 3), among('aus', 2, 5)];
const A_1: ReadonlyArray<Among<KpStemmer>> = [among('de', -1, 5), among('ge', -1, 2), among('ische', -1, 4),
  among('je', -1, 1), among('lijke', -1, 3), among('le', -1, 9), among('ene', -1, 10), among('re', -1, 8),
  among('se', -1, 7), among('te', -1, 6), among('ieve', -1, 11)];
const A_2: ReadonlyArray<Among<KpStemmer>> = [among('heid', -1, 3), among('fie', -1, 7), among('gie', -1, 8),
  among('atie', -1, 1), among('isme', -1, 5), among('ing', -1, 5), among('arij', -1, 6), among('erij', -1, 5),
  among('sel', -1, 3), among('rder', -1, 4), among('ster', -1, 3), among('iteit', -1, 2), among('dst', -1, 10),
  among('tst', -1, 9)];
const A_3: ReadonlyArray<Among<KpStemmer>> = [among('end', -1, 10), among('atief', -1, 2), among('erig', -1, 10),
  among('achtig', -1, 9), among('ioneel', -1, 1), among('baar', -1, 3), among('laar', -1, 5), among('naar', -1, 4),
  among('raar', -1, 6), among('eriger', -1, 10), among('achtiger', -1, 9), among('lijker', -1, 8),
  among('tant', -1, 7), among('erigst', -1, 10), among('achtigst', -1, 9), among('lijkst', -1, 8)];
const A_4: ReadonlyArray<Among<KpStemmer>> = [among('ig', -1, 1), among('iger', -1, 1), among('igst', -1, 1)];
const A_5: ReadonlyArray<Among<KpStemmer>> = [among('ft', -1, 2), among('kt', -1, 1), among('pt', -1, 3)];
const A_6: ReadonlyArray<Among<KpStemmer>> = [among('bb', -1, 1), among('cc', -1, 2), among('dd', -1, 3),
  among('ff', -1, 4), among('gg', -1, 5), among('hh', -1, 6), among('jj', -1, 7), among('kk', -1, 8),
  among('ll', -1, 9), among('mm', -1, 10), among('nn', -1, 11), among('pp', -1, 12), among('qq', -1, 13),
  among('rr', -1, 14), among('ss', -1, 15), among('tt', -1, 16), among('v', -1, 21), among('vv', 16, 17),
  among('ww', -1, 18), among('xx', -1, 19), among('z', -1, 22), among('zz', 20, 20)];
const A_7: ReadonlyArray<Among<KpStemmer>> = [among('d', -1, 1), among('t', -1, 2)];
const G_V = [17, 65, 16, 1];
const G_V_WX = [17, 65, 208, 1];
const G_AOU = [1, 64, 16];
const G_AIOU = [1, 65, 16];

export class KpStemmer extends SnowballProgram {
  private B_GE_removed = false;
  private B_stemmed = false;
  private B_Y_found = false;
  private I_p2 = 0;
  private I_p1 = 0;
  private I_x = 0;
  private S_ch = '';

  r_R1(): boolean {
    this.I_x = this.cursor;
    return this.I_x >= this.I_p1;
  }

  r_R2(): boolean {
    this.I_x = this.cursor;
    return this.I_x >= this.I_p2;
  }

  r_V(): boolean {
    const v_1 = this.limit - this.cursor;
    const v_2 = this.limit - this.cursor;
    if (!this.in_grouping_b(G_V, 97, 121)) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(2, 'ij')) {
        return false;
      }
    }
    this.cursor = this.limit - v_1;
    return true;
  }

  r_VX(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.cursor <= this.limit_backward) {
      return false;
    }
    --this.cursor;
    const v_2 = this.limit - this.cursor;
    if (!this.in_grouping_b(G_V, 97, 121)) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(2, 'ij')) {
        return false;
      }
    }
    this.cursor = this.limit - v_1;
    return true;
  }

  r_C(): boolean {
    const v_1 = this.limit - this.cursor;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(2, 'ij')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    if (!this.out_grouping_b(G_V, 97, 121)) {
      return false;
    }
    this.cursor = this.limit - v_1;
    return true;
  }

  r_lengthen_V(): boolean {
    const v_1 = this.limit - this.cursor;
    Label_0399: {
      if (this.out_grouping_b(G_V_WX, 97, 121)) {
        this.ket = this.cursor;
        const v_2 = this.limit - this.cursor;
        Label_0359: {
          Label_0143: {
            if (this.in_grouping_b(G_AOU, 97, 117)) {
              this.bra = this.cursor;
              const v_3 = this.limit - this.cursor;
              const v_4 = this.limit - this.cursor;
              if (!this.out_grouping_b(G_V, 97, 121)) {
                this.cursor = this.limit - v_4;
                if (this.cursor > this.limit_backward) {
                  break Label_0143;
                }
              }
              this.cursor = this.limit - v_3;
              break Label_0359;
            }
          }
          this.cursor = this.limit - v_2;
          if (!this.eq_s_b(1, 'e')) {
            break Label_0399;
          }
          this.bra = this.cursor;
          const v_5 = this.limit - this.cursor;
          const v_6 = this.limit - this.cursor;
          if (!this.out_grouping_b(G_V, 97, 121)) {
            this.cursor = this.limit - v_6;
            if (this.cursor > this.limit_backward) {
              break Label_0399;
            }
          }
          const v_7 = this.limit - this.cursor;
          if (this.in_grouping_b(G_AIOU, 97, 117)) {
            break Label_0399;
          }
          this.cursor = this.limit - v_7;
          const v_8 = this.limit - this.cursor;
          if (this.cursor > this.limit_backward) {
            --this.cursor;
            if (this.in_grouping_b(G_AIOU, 97, 117)) {
              if (this.out_grouping_b(G_V, 97, 121)) {
                break Label_0399;
              }
            }
          }
          this.cursor = this.limit - v_8;
          this.cursor = this.limit - v_5;
        }
        this.S_ch = this.slice_to();
        const c = this.cursor;
        this.insert(this.cursor, this.cursor, this.S_ch);
        this.cursor = c;
      }
    }
    this.cursor = this.limit - v_1;
    return true;
  }

  r_Step_1(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_0, 7);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_del();
        break;
      }
      case 2: {
        if (!this.r_R1()) {
          return false;
        }
        const v_1 = this.limit - this.cursor;
        if (this.eq_s_b(1, 't')) {
          if (this.r_R1()) {
            return false;
          }
        }
        this.cursor = this.limit - v_1;
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 3: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('ie');
        break;
      }
      case 4: {
        const v_2 = this.limit - this.cursor;
        if (this.eq_s_b(2, 'ar')) {
          if (this.r_R1()) {
            if (this.r_C()) {
              this.bra = this.cursor;
              this.slice_del();
              if (this.r_lengthen_V()) {
                break;
              }
            }
          }
        }
        this.cursor = this.limit - v_2;
        if (this.eq_s_b(2, 'er')) {
          if (this.r_R1()) {
            if (this.r_C()) {
              this.bra = this.cursor;
              this.slice_del();
              break;
            }
          }
        }
        this.cursor = this.limit - v_2;
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_from('e');
        break;
      }
      case 5: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_V()) {
          return false;
        }
        this.slice_from('au');
        break;
      }
      case 6: {
        const v_3 = this.limit - this.cursor;
        if (this.eq_s_b(3, 'hed')) {
          if (this.r_R1()) {
            this.bra = this.cursor;
            this.slice_from('heid');
            break;
          }
        }
        this.cursor = this.limit - v_3;
        if (this.eq_s_b(2, 'nd')) {
          this.slice_del();
          break;
        }
        this.cursor = this.limit - v_3;
        if (this.eq_s_b(1, 'd')) {
          if (this.r_R1()) {
            if (this.r_C()) {
              this.bra = this.cursor;
              this.slice_del();
              break;
            }
          }
        }
        this.cursor = this.limit - v_3;
        const v_4 = this.limit - this.cursor;
        Label_0575: {
          if (!this.eq_s_b(1, 'i')) {
            this.cursor = this.limit - v_4;
            if (!this.eq_s_b(1, 'j')) {
              break Label_0575;
            }
          }
          if (this.r_V()) {
            this.slice_del();
            break;
          }
        }
        this.cursor = this.limit - v_3;
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 7: {
        this.slice_from('nd');
        break;
      }
    }
    return true;
  }

  r_Step_2(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_1, 11);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        const v_1 = this.limit - this.cursor;
        if (this.eq_s_b(2, '\'t')) {
          this.bra = this.cursor;
          this.slice_del();
          break;
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(2, 'et')) {
          this.bra = this.cursor;
          if (this.r_R1()) {
            if (this.r_C()) {
              this.slice_del();
              break;
            }
          }
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(3, 'rnt')) {
          this.bra = this.cursor;
          this.slice_from('rn');
          break;
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(1, 't')) {
          this.bra = this.cursor;
          if (this.r_R1()) {
            if (this.r_VX()) {
              this.slice_del();
              break;
            }
          }
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(3, 'ink')) {
          this.bra = this.cursor;
          this.slice_from('ing');
          break;
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(2, 'mp')) {
          this.bra = this.cursor;
          this.slice_from('m');
          break;
        }
        this.cursor = this.limit - v_1;
        if (this.eq_s_b(1, '\'')) {
          this.bra = this.cursor;
          if (this.r_R1()) {
            this.slice_del();
            break;
          }
        }
        this.cursor = this.limit - v_1;
        this.bra = this.cursor;
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 2: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('g');
        break;
      }
      case 3: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('lijk');
        break;
      }
      case 4: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('isch');
        break;
      }
      case 5: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 6: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('t');
        break;
      }
      case 7: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('s');
        break;
      }
      case 8: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('r');
        break;
      }
      case 9: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_del();
        this.insert(this.cursor, this.cursor, 'l');
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 10: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        this.insert(this.cursor, this.cursor, 'en');
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 11: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_from('ief');
        break;
      }
    }
    return true;
  }

  r_Step_3(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_2, 14);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_from('eer');
        break;
      }
      case 2: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_del();
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 3: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_del();
        break;
      }
      case 4: {
        this.slice_from('r');
        break;
      }
      case 5: {
        if (!this.r_R1()) {
          return false;
        }
        this.slice_del();
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 6: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_from('aar');
        break;
      }
      case 7: {
        if (!this.r_R2()) {
          return false;
        }
        this.slice_del();
        this.insert(this.cursor, this.cursor, 'f');
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 8: {
        if (!this.r_R2()) {
          return false;
        }
        this.slice_del();
        this.insert(this.cursor, this.cursor, 'g');
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
      case 9: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_from('t');
        break;
      }
      case 10: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_from('d');
        break;
      }
    }
    return true;
  }

  r_Step_4(): boolean {
    const v_1 = this.limit - this.cursor;
    this.ket = this.cursor;
    let among_var = this.find_among_b(A_3, 16);
    Label_0341: {
      if (among_var !== 0) {
        this.bra = this.cursor;
        switch (among_var) {
          case 0: {
            break Label_0341;
          }
          case 1: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_from('ie');
            break;
          }
          case 2: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_from('eer');
            break;
          }
          case 3: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_del();
            break;
          }
          case 4: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            if (!this.r_V()) {
              break Label_0341;
            }
            this.slice_from('n');
            break;
          }
          case 5: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            if (!this.r_V()) {
              break Label_0341;
            }
            this.slice_from('l');
            break;
          }
          case 6: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            if (!this.r_V()) {
              break Label_0341;
            }
            this.slice_from('r');
            break;
          }
          case 7: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_from('teer');
            break;
          }
          case 8: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_from('lijk');
            break;
          }
          case 9: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            this.slice_del();
            break;
          }
          case 10: {
            if (!this.r_R1()) {
              break Label_0341;
            }
            if (!this.r_C()) {
              break Label_0341;
            }
            this.slice_del();
            if (!this.r_lengthen_V()) {
              break Label_0341;
            }
            break;
          }
        }
        return true;
      }
    }
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    among_var = this.find_among_b(A_4, 3);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        if (!this.r_R1()) {
          return false;
        }
        if (!this.r_C()) {
          return false;
        }
        this.slice_del();
        if (!this.r_lengthen_V()) {
          return false;
        }
        break;
      }
    }
    return true;
  }

  r_Step_7(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_5, 3);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('k');
        break;
      }
      case 2: {
        this.slice_from('f');
        break;
      }
      case 3: {
        this.slice_from('p');
        break;
      }
    }
    return true;
  }

  r_Step_6(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_6, 22);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('b');
        break;
      }
      case 2: {
        this.slice_from('c');
        break;
      }
      case 3: {
        this.slice_from('d');
        break;
      }
      case 4: {
        this.slice_from('f');
        break;
      }
      case 5: {
        this.slice_from('g');
        break;
      }
      case 6: {
        this.slice_from('h');
        break;
      }
      case 7: {
        this.slice_from('j');
        break;
      }
      case 8: {
        this.slice_from('k');
        break;
      }
      case 9: {
        this.slice_from('l');
        break;
      }
      case 10: {
        this.slice_from('m');
        break;
      }
      case 11: {
        this.slice_from('n');
        break;
      }
      case 12: {
        this.slice_from('p');
        break;
      }
      case 13: {
        this.slice_from('q');
        break;
      }
      case 14: {
        this.slice_from('r');
        break;
      }
      case 15: {
        this.slice_from('s');
        break;
      }
      case 16: {
        this.slice_from('t');
        break;
      }
      case 17: {
        this.slice_from('v');
        break;
      }
      case 18: {
        this.slice_from('w');
        break;
      }
      case 19: {
        this.slice_from('x');
        break;
      }
      case 20: {
        this.slice_from('z');
        break;
      }
      case 21: {
        this.slice_from('f');
        break;
      }
      case 22: {
        this.slice_from('s');
        break;
      }
    }
    return true;
  }

  r_Step_1c(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_7, 2);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    if (!this.r_R1()) {
      return false;
    }
    if (!this.r_C()) {
      return false;
    }
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        const v_1 = this.limit - this.cursor;
        if (this.eq_s_b(1, 'n')) {
          if (this.r_R1()) {
            return false;
          }
        }
        this.cursor = this.limit - v_1;
        this.slice_del();
        break;
      }
      case 2: {
        const v_2 = this.limit - this.cursor;
        if (this.eq_s_b(1, 'h')) {
          if (this.r_R1()) {
            return false;
          }
        }
        this.cursor = this.limit - v_2;
        this.slice_del();
        break;
      }
    }
    return true;
  }

  r_Lose_prefix(): boolean {
    this.bra = this.cursor;
    if (!this.eq_s(2, 'ge')) {
      return false;
    }
    this.ket = this.cursor;
    const v_1 = this.cursor;
    const c = this.cursor + 3;
    if (0 > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = v_1;
    while (true) {
      const v_2 = this.cursor;
      if (!this.in_grouping(G_V, 97, 121)) {
        this.cursor = v_2;
        if (this.cursor >= this.limit) {
          return false;
        }
        ++this.cursor;
      } else {
        this.cursor = v_2;
        while (true) {
          const v_3 = this.cursor;
          if (this.out_grouping(G_V, 97, 121)) {
            this.cursor = v_3;
            this.B_GE_removed = true;
            this.slice_del();
            return true;
          }
          this.cursor = v_3;
          if (this.cursor >= this.limit) {
            return false;
          }
          ++this.cursor;
        }
      }
    }
  }

  r_Lose_infix(): boolean {
    if (this.cursor >= this.limit) {
      return false;
    }
    ++this.cursor;
    while (true) {
      this.bra = this.cursor;
      if (!this.eq_s(2, 'ge')) {
        if (this.cursor >= this.limit) {
          return false;
        }
        ++this.cursor;
      } else {
        this.ket = this.cursor;
        const v_2 = this.cursor;
        const c = this.cursor + 3;
        if (0 > c || c > this.limit) {
          return false;
        }
        this.cursor = c;
        this.cursor = v_2;
        while (true) {
          const v_3 = this.cursor;
          if (!this.in_grouping(G_V, 97, 121)) {
            this.cursor = v_3;
            if (this.cursor >= this.limit) {
              return false;
            }
            ++this.cursor;
          } else {
            this.cursor = v_3;
            while (true) {
              const v_4 = this.cursor;
              if (this.out_grouping(G_V, 97, 121)) {
                this.cursor = v_4;
                this.B_GE_removed = true;
                this.slice_del();
                return true;
              }
              this.cursor = v_4;
              if (this.cursor >= this.limit) {
                return false;
              }
              ++this.cursor;
            }
          }
        }
      }
    }
  }

  r_measure(): boolean {
    const v_1 = this.cursor;
    this.cursor = this.limit;
    this.I_p1 = this.cursor;
    this.I_p2 = this.cursor;
    this.cursor = v_1;
    const v_2 = this.cursor;
    while (this.out_grouping(G_V, 97, 121)) {}
    let v_3 = 1;
    let v_4: number;
    while (true) {
      v_4 = this.cursor;
      const v_5 = this.cursor;
      if (!this.eq_s(2, 'ij')) {
        this.cursor = v_5;
        if (!this.in_grouping(G_V, 97, 121)) {
          break;
        }
      }
      --v_3;
    }
    this.cursor = v_4;
    if (v_3 <= 0) {
      if (this.out_grouping(G_V, 97, 121)) {
        this.I_p1 = this.cursor;
        while (this.out_grouping(G_V, 97, 121)) {}
        let v_6 = 1;
        let v_7: number;
        while (true) {
          v_7 = this.cursor;
          const v_8 = this.cursor;
          if (!this.eq_s(2, 'ij')) {
            this.cursor = v_8;
            if (!this.in_grouping(G_V, 97, 121)) {
              break;
            }
          }
          --v_6;
        }
        this.cursor = v_7;
        if (v_6 <= 0) {
          if (this.out_grouping(G_V, 97, 121)) {
            this.I_p2 = this.cursor;
          }
        }
      }
    }
    this.cursor = v_2;
    return true;
  }

  override stem(): boolean {
    this.B_Y_found = false;
    this.B_stemmed = false;
    const v_1 = this.cursor;
    this.bra = this.cursor;
    if (this.eq_s(1, 'y')) {
      this.ket = this.cursor;
      this.slice_from('Y');
      this.B_Y_found = true;
    }
    this.cursor = v_1;
    const v_2 = this.cursor;
    let v_3 = 0;
  Block_4:
    while (true) {
      v_3 = this.cursor;
      while (true) {
        const v_4 = this.cursor;
        if (this.in_grouping(G_V, 97, 121)) {
          this.bra = this.cursor;
          if (this.eq_s(1, 'y')) {
            this.ket = this.cursor;
            this.cursor = v_4;
            this.slice_from('Y');
            this.B_Y_found = true;
            break;
          }
        }
        this.cursor = v_4;
        if (this.cursor >= this.limit) {
          break Block_4;
        }
        ++this.cursor;
      }
    }
    this.cursor = v_3;
    this.cursor = v_2;
    if (!this.r_measure()) {
      return false;
    }
    this.limit_backward = this.cursor;
    this.cursor = this.limit;
    const v_5 = this.limit - this.cursor;
    if (this.r_Step_1()) {
      this.B_stemmed = true;
    }
    this.cursor = this.limit - v_5;
    const v_6 = this.limit - this.cursor;
    if (this.r_Step_2()) {
      this.B_stemmed = true;
    }
    this.cursor = this.limit - v_6;
    const v_7 = this.limit - this.cursor;
    if (this.r_Step_3()) {
      this.B_stemmed = true;
    }
    this.cursor = this.limit - v_7;
    const v_8 = this.limit - this.cursor;
    if (this.r_Step_4()) {
      this.B_stemmed = true;
    }
    this.cursor = this.limit - v_8;
    this.cursor = this.limit_backward;
    this.B_GE_removed = false;
    const v_9 = this.cursor;
    const v_10 = this.cursor;
    if (this.r_Lose_prefix()) {
      this.cursor = v_10;
      if (!this.r_measure()) {}
    }
    this.cursor = v_9;
    this.limit_backward = this.cursor;
    this.cursor = this.limit;
    const v_11 = this.limit - this.cursor;
    if (this.B_GE_removed) {
      if (!this.r_Step_1c()) {}
    }
    this.cursor = this.limit - v_11;
    this.cursor = this.limit_backward;
    this.B_GE_removed = false;
    const v_12 = this.cursor;
    const v_13 = this.cursor;
    if (this.r_Lose_infix()) {
      this.cursor = v_13;
      if (!this.r_measure()) {}
    }
    this.cursor = v_12;
    this.limit_backward = this.cursor;
    this.cursor = this.limit;
    const v_14 = this.limit - this.cursor;
    if (this.B_GE_removed) {
      if (!this.r_Step_1c()) {}
    }
    this.cursor = this.limit - v_14;
    this.cursor = this.limit_backward;
    this.limit_backward = this.cursor;
    this.cursor = this.limit;
    const v_15 = this.limit - this.cursor;
    if (this.r_Step_7()) {
      this.B_stemmed = true;
    }
    this.cursor = this.limit - v_15;
    const v_16 = this.limit - this.cursor;
    if (this.B_stemmed || this.B_GE_removed) {
      if (!this.r_Step_6()) {}
    }
    this.cursor = this.limit - v_16;
    this.cursor = this.limit_backward;
    const v_17 = this.cursor;
    if (this.B_Y_found) {
      let v_18 = 0;
    Block_19:
      while (true) {
        v_18 = this.cursor;
        while (true) {
          const v_19 = this.cursor;
          this.bra = this.cursor;
          if (this.eq_s(1, 'Y')) {
            this.ket = this.cursor;
            this.cursor = v_19;
            this.slice_from('y');
            break;
          }
          this.cursor = v_19;
          if (this.cursor >= this.limit) {
            break Block_19;
          }
          ++this.cursor;
        }
      }
      this.cursor = v_18;
    }
    this.cursor = v_17;
    return true;
  }
}
