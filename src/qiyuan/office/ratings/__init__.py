"""Rating lists, periods and published editions (等级分公布)"""
