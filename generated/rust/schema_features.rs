&[("ainb.ksy", "ainb"), ("byml.ksy", "byml"), ("exb.ksy", "ainb"), ("panim_perro.ksy", "panim-perro"), ("panim_pluto.ksy", "panim-pluto"), ("rsizetable.ksy", "rsizetable"), ("sarc.ksy", "sarc")]
